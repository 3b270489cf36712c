import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { api, login } from './http'
import { freePort } from './ports'
import { startServer, type TestServer } from './server'
import { jpeg } from './fixtures'
import { keyOfUrl, putBytes } from './uploads'

export interface CrashReport {
  rounds: number
  confirmed: number
  batches: number
  integrity: string
  missing: string[]
  halfApplied: string[]
  orphans: string[]
  unconfirmedLeft: number
}

interface Confirmed { id: string, key: string, size: number }
interface Batch { ids: string[], action: 'reject' | 'delete', answered: boolean }

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Drives guests (init, PUT, confirm) and an admin (bulk reject / delete) against the built server,
 * kills it with SIGKILL at a random moment, restarts, and repeats; then checks what a wedding
 * needs: the database is intact, every upload that was confirmed with a 200 is there with its
 * bytes, no bulk action is half-applied, and what was left unfinished is swept.
 */
export async function runCrashSafety(options: { rounds: number, guests?: number, log?: (line: string) => void }): Promise<CrashReport> {
  const log = options.log ?? (() => {})
  const dir = mkdtempSync(join(tmpdir(), 'crash-'))
  const port = await freePort()
  const env = { PORT: String(port), UPLOAD_STALE_AFTER_SECONDS: '4', SWEEP_INTERVAL_SECONDS: '1', RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000' }
  const photos = await Promise.all([jpeg(40, 30), jpeg(64, 48, { r: 1, g: 2, b: 3 }), jpeg(120, 90, { r: 200, g: 200, b: 0 })])
  const confirmed: Confirmed[] = []
  const batches: Batch[] = []
  const batched = new Set<string>()

  for (let round = 0; round < options.rounds; round++) {
    const server = await startServer(env, dir)
    const cookie = await login(server.url)
    let running = true
    const guest = async (n: number) => {
      while (running) {
        try {
          const bytes = photos[(n + confirmed.length) % photos.length]!
          const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'p.jpg', contentType: 'image/jpeg', size: bytes.length, author: `g${n}` } })
          if (init.status !== 201) continue
          await putBytes(init.body.upload.url, bytes, init.body.upload.headers)
          const confirm = await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
          if (confirm.status === 200) confirmed.push({ id: init.body.id, key: keyOfUrl(init.body.upload.url), size: bytes.length })
        }
        catch {
          await sleep(20)
        }
      }
    }
    const admin = async () => {
      while (running) {
        const ids = confirmed.map(c => c.id).filter(id => !batched.has(id)).slice(0, 6)
        if (ids.length >= 3) {
          ids.forEach(id => batched.add(id))
          const batch: Batch = { ids, action: batches.length % 2 ? 'delete' : 'reject', answered: false }
          batches.push(batch)
          try {
            const response = await api(server.url, '/api/admin/uploads/bulk', { method: 'POST', json: { ids, action: batch.action }, cookie })
            batch.answered = response.status === 200
          }
          catch { /* killed mid-request: checked for all-or-nothing below */ }
        }
        await sleep(50)
      }
    }
    const work = Promise.all([...Array.from({ length: options.guests ?? 4 }, (_, n) => guest(n)), admin()])
    await sleep(400 + Math.random() * 1200)
    server.proc.kill('SIGKILL')
    await server.stop()
    running = false
    await work
    log(`round ${round + 1}: killed; ${confirmed.length} confirmed, ${batches.length} bulk actions so far`)
  }

  const db = createClient({ url: `file:${join(dir, 'event.db')}` })
  const integrity = String((await db.execute('PRAGMA integrity_check')).rows[0]![0])
  db.close()

  // Restart once more and let the sweeper finish what the crashes left.
  const server: TestServer = await startServer(env, dir)
  try {
    const check = createClient({ url: `file:${join(dir, 'event.db')}` })
    let unconfirmedLeft = -1
    for (let i = 0; i < 100; i++) {
      unconfirmedLeft = Number((await check.execute('SELECT count(*) FROM uploads WHERE confirmed_at IS NULL')).rows[0]![0])
      if (unconfirmedLeft === 0) break
      await sleep(100)
    }
    // Leftover temporary files and multipart folders are collected once older than the limit.
    await sleep(5500)
    const rows = (await check.execute('SELECT id, status, confirmed_at, storage_key, thumb_key, display_key FROM uploads')).rows
    const byId = new Map(rows.map(row => [String(row.id), row]))
    const pending = new Set((await check.execute('SELECT key FROM pending_deletions')).rows.map(row => String(row.key)))
    check.close()

    const deleted = new Set(batches.filter(b => b.action === 'delete').flatMap(b => b.ids))
    const missing: string[] = []
    for (const upload of confirmed) {
      if (deleted.has(upload.id)) continue
      const row = byId.get(upload.id)
      const path = join(server.mediaDir, upload.key)
      if (!row || row.confirmed_at === null) missing.push(`${upload.id}: record`)
      else if (!existsSync(path) || statSync(path).size !== upload.size) missing.push(`${upload.id}: bytes`)
    }
    const halfApplied: string[] = []
    for (const batch of batches) {
      const states = batch.ids.map(id => (byId.has(id) ? String(byId.get(id)!.status) : 'gone'))
      const applied = states.filter(s => s === (batch.action === 'delete' ? 'gone' : 'rejected')).length
      if (applied !== 0 && applied !== states.length) halfApplied.push(`${batch.action} [${states.join(',')}]`)
      if (batch.answered && applied !== states.length) halfApplied.push(`${batch.action} answered 200 but not applied`)
    }
    const orphans: string[] = []
    // staging/ too: bytes a crash left there before their confirm moved them are swept like the rest.
    for (const folder of ['orig', 'media', 'staging/orig', 'staging/media']) {
      const path = join(server.mediaDir, folder)
      for (const name of existsSync(path) ? readdirSync(path) : []) {
        const key = `${folder}/${name}`
        if (!byId.has(name.slice(0, 20)) && !pending.has(key)) orphans.push(key)
      }
    }
    const multipart = join(server.mediaDir, '.multipart')
    if (existsSync(multipart)) orphans.push(...readdirSync(multipart).map(name => `.multipart/${name}`))
    return { rounds: options.rounds, confirmed: confirmed.length, batches: batches.length, integrity, missing, halfApplied, orphans, unconfirmedLeft }
  }
  finally {
    await server.stop()
  }
}
