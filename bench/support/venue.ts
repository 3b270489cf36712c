// The venue's Wi-Fi over an evening, in compressed time: 300 phones on /galeria each
// polling the newest page (24 items) every 10 s, a projector polling three pages of 100 every
// 10 s, while uploads arrive and the admin approves and rejects a few a minute. Every client acts
// as a browser does with the answers it gets: it sends `accept-encoding: gzip, deflate, br` and,
// once it holds an answer with an ETag, `If-None-Match` (the browser's cache revalidating a
// `no-cache` answer). Counts every byte of every polling answer (status line, headers, body).
// Used by `bench/load.ts --venue`.
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createClient, type InStatement } from '@libsql/client'
import { api, login } from '../../tests/support/http'
import { startServer } from '../../tests/support/server'

export interface VenueOptions {
  entry: string
  phones: number
  /** Evening minutes simulated. */
  minutes: number
  /** How many times faster than real time (10: a 10 s poll every second). */
  speed: number
  /** Approved uploads already in the gallery when the simulation starts. */
  seeded: number
  uploadsPerMinute: number
  approvalsPerMinute: number
  rejectionsPerMinute: number
  /** Guests' hearts per real second on the photos the phones see (each from a new device), or none. */
  heartsPerSecond?: number
}

export interface VenueResult {
  polls: number
  ok: number
  notModified: number
  failed: number
  bytes: number
  bytesPerMinute: number
  changes: number
  hearts: number
  /** Polls answered per real second. */
  pollsPerSecond: number
}

const POLL_S = 10

interface Memory { etag?: string, body?: any }

const agent = new Agent({ keepAlive: true, maxSockets: 64 })

/** One polling GET as a browser with a cache sends it; answers its bytes on the wire and the body it then shows. */
function poll(url: string, memory: Memory): Promise<{ status: number, bytes: number, body: any }> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' }
  if (memory.etag) headers['if-none-match'] = memory.etag
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const head = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n${response.rawHeaders.map((v, i) => (i % 2 ? `${v}\r\n` : `${v}: `)).join('')}\r\n`
        const raw = Buffer.concat(chunks)
        const bytes = raw.length + Buffer.byteLength(head)
        if (response.statusCode === 304) return resolve({ status: 304, bytes, body: memory.body })
        let body: any
        if (response.statusCode === 200) {
          const encoding = response.headers['content-encoding']
          const text = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
          body = JSON.parse(text.toString('utf8'))
          memory.etag = response.headers.etag
          memory.body = body
        }
        resolve({ status: response.statusCode!, bytes, body })
      })
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

function row(id: string, status: string, createdAt: number): InStatement {
  return {
    sql: `insert into uploads (id, status, kind, author, message, search_text, file_name, content_type, size, width, height,
      storage_key, thumb_key, display_key, derived_at, created_at, confirmed_at, updated_at)
      values (?, ?, 'photo', 'Convidada', 'Que festa linda!', 'convidada que festa linda!', 'IMG.JPG', 'image/jpeg', 2000000, 4032, 3024, ?, ?, ?, ?, ?, ?, ?)`,
    args: [id, status, `orig/${id}-${randomBytes(12).toString('base64url')}.jpg`, `media/${id}-${randomBytes(12).toString('base64url')}-thumb.webp`,
      `media/${id}-${randomBytes(12).toString('base64url')}-display.jpg`, createdAt, createdAt, createdAt, createdAt],
  }
}

export async function runVenue(options: VenueOptions): Promise<VenueResult> {
  const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000' }, undefined, options.entry)
  const db = createClient({ url: `file:${server.dbPath}`, timeout: 5000 })
  try {
    const cookie = await login(server.url)
    const start = Date.parse('2026-12-12T20:00:00.000Z')
    const seeds: InStatement[] = []
    for (let i = 0; i < options.seeded; i++) seeds.push(row(randomBytes(15).toString('base64url'), 'approved', start + i * 1000))
    for (let i = 0; i < seeds.length; i += 500) await db.batch(seeds.slice(i, i + 500), 'write')
    // Pre-moderation: an upload changes the admin's answers; the public's change as the admin acts.
    const moderation = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'pre' }, cookie })
    if (moderation.status !== 200) throw new Error(`moderation: ${moderation.status}`)

    const result: VenueResult = { polls: 0, ok: 0, notModified: 0, failed: 0, bytes: 0, bytesPerMinute: 0, changes: 0, hearts: 0, pollsPerSecond: 0 }
    const pollMs = (POLL_S * 1000) / options.speed
    const realMs = (options.minutes * 60_000) / options.speed
    const endAt = Date.now() + realMs
    const pending: string[] = []
    const approved: string[] = []
    let created = start + options.seeded * 1000

    const count = (answer: { status: number, bytes: number }) => {
      result.polls++
      result.bytes += answer.bytes
      if (answer.status === 200) result.ok++
      else if (answer.status === 304) result.notModified++
      else result.failed++
    }

    const loops: Promise<void>[] = []
    const every = (periodMs: number, work: () => Promise<void>) => loops.push((async () => {
      await new Promise(resolve => setTimeout(resolve, Math.random() * periodMs))
      while (Date.now() < endAt) {
        const began = Date.now()
        await work().catch((error: Error) => {
          result.failed++
          if (result.failed <= 3) console.warn('[venue]', error.message)
        })
        await new Promise(resolve => setTimeout(resolve, Math.max(0, periodMs - (Date.now() - began))))
      }
    })())

    for (let phone = 0; phone < options.phones; phone++) {
      const memory: Memory = {}
      every(pollMs, async () => count(await poll(`${server.url}/api/gallery?limit=24`, memory)))
    }
    // The projector: three pages of 100, each URL with its own cached answer, as the browser keeps them.
    const projector = new Map<string, Memory>()
    every(pollMs, async () => {
      let cursor: string | null = null
      for (let page = 0; page < 3; page++) {
        const url = `${server.url}/api/gallery?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        const memory = projector.get(url) ?? {}
        projector.set(url, memory)
        const answer = await poll(url, memory)
        count(answer)
        cursor = answer.body?.nextCursor ?? null
        if (!cursor) break
      }
    })
    // The evening's rhythm: uploads arrive (confirmed rows, written as the confirm writes them), the admin acts.
    const perMinute = (n: number) => (60_000 / options.speed) / n
    every(perMinute(options.uploadsPerMinute), async () => {
      const id = randomBytes(15).toString('base64url')
      created += 1000
      await db.execute(row(id, 'pending', created))
      pending.push(id)
    })
    every(perMinute(options.approvalsPerMinute), async () => {
      const id = pending.shift()
      if (!id) return
      const answer = await api(server.url, `/api/admin/uploads/${id}/approve`, { method: 'POST', cookie })
      if (answer.status === 200) {
        approved.push(id)
        result.changes++
      }
    })
    every(perMinute(options.rejectionsPerMinute), async () => {
      const id = approved.shift()
      if (!id) return
      const answer = await api(server.url, `/api/admin/uploads/${id}/reject`, { method: 'POST', cookie })
      if (answer.status === 200) result.changes++
    })
    // Hearts on the newest photos (those the phones' first page shows), each from a device of its
    // own (no cookie: the server gives each call a new one), paced in real time: the gallery's
    // answer takes them in at most once a real second, whatever the simulation's speed.
    if (options.heartsPerSecond) {
      const newest = seeds.slice(-24).map(statement => (statement as { args: string[] }).args[0]!)
      every(1000 / options.heartsPerSecond, async () => {
        const id = newest[Math.floor(Math.random() * newest.length)]!
        const answer = await api(server.url, `/api/gallery/${id}/heart`, { method: 'POST' })
        if (answer.status === 200) result.hearts++
      })
    }
    const began = Date.now()
    await Promise.all(loops)
    result.pollsPerSecond = result.polls / ((Date.now() - began) / 1000)
    result.bytesPerMinute = result.bytes / options.minutes
    return result
  }
  finally {
    db.close()
    await server.stop()
  }
}
