import { createClient, type Client } from '@libsql/client'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { searchTextOf } from '../../shared/search'
import { jpeg, mp4 } from './fixtures'
import { api } from './http'
import { keyOfUrl, uploadFile } from './uploads'

export interface Seeded {
  id: string
  bytes: Buffer
  /** The original's storage key. */
  key: string
  status: string
}

let colour = 0

/** A small JPEG whose bytes differ from every other one this helper made. */
export function distinctJpeg(): Promise<Buffer> {
  colour++
  return jpeg(16 + (colour % 7), 16, { r: colour % 256, g: (colour * 7) % 256, b: (colour * 13) % 256 })
}

/** A confirmed photo (approved or pending, as the event's moderation decides). */
export async function seedPhoto(base: string, fields: { author?: string, message?: string, fileName?: string, bytes?: Buffer } = {}): Promise<Seeded> {
  const bytes = fields.bytes ?? await distinctJpeg()
  const { init, confirm } = await uploadFile(base, bytes, {
    contentType: 'image/jpeg', size: bytes.length, author: fields.author ?? 'Maria', message: fields.message ?? '', fileName: fields.fileName ?? 'IMG_0001.JPG',
  })
  assert.equal(confirm.status, 200)
  await derivationSettled(base)
  return { id: init.id, bytes, key: keyOfUrl(init.upload.url), status: confirm.body.status }
}

/**
 * Waits until the server has made the display images of every photo confirmed so far: a photo
 * enters the gallery only then. (Derivation of these small test images takes milliseconds.)
 */
export async function derivationSettled(base: string): Promise<void> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const health = await api(base, '/api/health')
    if (health.body.derivationBacklog === 0) return
    if (Date.now() > deadline) throw new Error(`derivation backlog never drained: ${JSON.stringify(health.body)}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

export async function seedVideo(base: string, fields: { author?: string, message?: string, size?: number } = {}): Promise<Seeded> {
  const bytes = mp4(fields.size ?? 2048 + colour++)
  const { init, confirm } = await uploadFile(base, bytes, {
    contentType: 'video/mp4', size: bytes.length, durationSec: 3, author: fields.author ?? 'Pedro', message: fields.message ?? '', fileName: 'VID.MP4',
  })
  assert.equal(confirm.status, 200)
  return { id: init.id, bytes, key: keyOfUrl(init.upload.url), status: confirm.body.status }
}

/** An upload that was initialised (and optionally sent) but never confirmed. */
export async function seedUnconfirmed(base: string, author = 'Nunca Confirmado'): Promise<string> {
  const bytes = await distinctJpeg()
  const init = await api(base, '/api/uploads/init', { method: 'POST', json: { fileName: 'x.jpg', contentType: 'image/jpeg', size: bytes.length, author } })
  assert.equal(init.status, 201)
  return init.body.id
}

export async function setModeration(base: string, cookie: string, moderation: 'pre' | 'post') {
  const response = await api(base, '/api/admin/event', { method: 'PATCH', json: { moderation }, cookie })
  assert.equal(response.status, 200)
}

/** Runs `work` in batches of `size` at a time (the server has two cores too). */
export async function inBatches<T>(count: number, size: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = []
  for (let start = 0; start < count; start += size) {
    results.push(...await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => work(start + i))))
  }
  return results
}

/** The admin record of an upload (a PATCH without fields answers it unchanged). */
export async function adminRecord(base: string, cookie: string, id: string) {
  return api(base, `/api/admin/uploads/${id}`, { method: 'PATCH', json: {}, cookie })
}

/** Waits until a photo's display and thumbnail images exist (derivation runs after confirm). */
export async function waitForDerived(base: string, cookie: string, id: string): Promise<any> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const record = await adminRecord(base, cookie, id)
    assert.equal(record.status, 200)
    if (record.body.thumbUrl !== record.body.url) return record.body
    if (Date.now() > deadline) throw new Error(`photo ${id} was never derived`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

/**
 * The test server's database file, opened beside the server (WAL lets both use it). Writes wait
 * for the server's own (derivations run in the background) instead of failing with SQLITE_BUSY.
 */
export function openDatabase(dbPath: string): Client {
  return createClient({ url: `file:${dbPath}`, timeout: 10_000 })
}

export interface SeededMessage { id: string, author: string, text: string, createdAt: number }

/**
 * `count` approved written messages straight into the server's database, one a second from `from`,
 * in one transaction of 500-row INSERTs (a statement per row would take most of the time with
 * 20,000 of them). `textOf` writes message `index`; every id and text is distinct by default.
 */
export async function seedGuestbookMessages(db: Client, count: number, options: { from?: number, textOf?: (index: number) => string, authorOf?: (index: number) => string } = {}): Promise<SeededMessage[]> {
  const from = options.from ?? Date.parse('2026-12-12T18:00:00.000Z')
  const textOf = options.textOf ?? (index => `Recado número ${index}: felicidades aos noivos`)
  const authorOf = options.authorOf ?? (index => `Convidado ${index}`)
  const seeded: SeededMessage[] = []
  const columns = ['id', 'status', 'author', 'text', 'search_text', 'created_at', 'updated_at']
  const values = `(${columns.map(() => '?').join(', ')})`
  const transaction = await db.transaction('write')
  try {
    for (let done = 0; done < count; done += 500) {
      const args: (string | number)[] = []
      const rows = Math.min(500, count - done)
      for (let index = done; index < done + rows; index++) {
        const message = { id: `seeded-${String(index).padStart(6, '0')}-${randomBytes(6).toString('hex')}`, author: authorOf(index), text: textOf(index), createdAt: from + index * 1000 }
        seeded.push(message)
        args.push(message.id, 'approved', message.author, message.text, searchTextOf(message.author, message.text), message.createdAt, message.createdAt)
      }
      await transaction.execute({ sql: `INSERT INTO guestbook_messages (${columns.join(', ')}) VALUES ${Array(rows).fill(values).join(', ')}`, args })
    }
    await transaction.commit()
  }
  finally {
    transaction.close()
  }
  return seeded
}
