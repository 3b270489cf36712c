import { createClient } from '@libsql/client'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { galleryItems } from '../support/guests'
import { api, login } from '../support/http'
import { startS3, type TestS3 } from '../support/s3'
import { seedPhoto, seedVideo, waitForDerived } from '../support/seed'
import { ROOT, startServer, type TestServer } from '../support/server'
import { findSqld, startSqld, type TestSqld } from '../support/sqld'

/**
 * The cloud path's database: the e2e core (init → PUT → confirm → gallery → admin) with
 * DATABASE_URL on a real libSQL server (sqld, what Turso runs) over http://127.0.0.1, instead of a
 * file. Runs where sqld is found (tests/support/sqld.ts says where it looks; .ci/run fetches it).
 */
const sqld = findSqld()
const journal = JSON.parse(readFileSync(join(ROOT, 'db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] }

describe.runIf(Boolean(sqld)).each(['local', 's3'] as const)('a remote libSQL database (sqld, %s driver)', (driver) => {
  let database: TestSqld
  let s3: TestS3 | undefined
  let server: TestServer | undefined
  let cookie: string
  const env = () => ({ ...s3?.env, DATABASE_URL: database.url })

  beforeAll(async () => {
    database = await startSqld(sqld!)
    if (driver === 's3') s3 = await startS3()
    server = await startServer(env())
    cookie = await login(server.url)
  })
  afterAll(async () => {
    await server?.stop()
    await s3?.stop()
    await database?.stop()
  })

  it('answers health with the database up, and keeps no database file of its own', async () => {
    const health = await api(server!.url, '/api/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'ok', database: 'ok', storage: 'ok', storageDriver: driver })
    expect(existsSync(server!.dbPath)).toBe(false)
  })

  it('takes settings, uploads and moderation, and lists what was approved', async () => {
    const patched = await api(server!.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Clara & Davi', moderation: 'pre' }, cookie })
    expect(patched.status).toBe(200)
    const event = await api(server!.url, '/api/event')
    expect(event.body).toMatchObject({ coupleNames: 'Clara & Davi', moderation: 'pre' })

    const photo = await seedPhoto(server!.url, { author: 'Helena', message: 'Brinde aos noivos' })
    const video = await seedVideo(server!.url, { author: 'Otávio', message: 'Dança' })
    expect([photo.status, video.status]).toEqual(['pending', 'pending'])
    expect(await galleryItems(server!.url)).toEqual([])

    const pending = await api(server!.url, '/api/admin/uploads?status=pending', { cookie })
    expect(pending.status).toBe(200)
    expect(pending.body.items.map((item: any) => [item.id, item.author, item.message])).toEqual([
      [video.id, 'Otávio', 'Dança'],
      [photo.id, 'Helena', 'Brinde aos noivos'],
    ])
    expect((await api(server!.url, `/api/admin/uploads/${photo.id}/approve`, { method: 'POST', cookie })).status).toBe(200)
    expect((await api(server!.url, `/api/admin/uploads/${video.id}/reject`, { method: 'POST', cookie })).status).toBe(200)
    await waitForDerived(server!.url, cookie, photo.id)

    const items = await galleryItems(server!.url)
    expect(items.map(item => [item.id, item.author, item.message])).toEqual([[photo.id, 'Helena', 'Brinde aos noivos']])
    // The admin's text search: FTS5 with the trigram tokenizer, on the server's SQLite.
    const search = await api(server!.url, '/api/admin/uploads?q=brinde', { cookie })
    expect(search.body.items.map((item: any) => item.id)).toEqual([photo.id])

    // Every row is in the remote database, as the API says.
    const remote = createClient({ url: database.url })
    const rows = await remote.execute('SELECT id, status FROM uploads ORDER BY created_at')
    remote.close()
    expect(rows.rows.map(row => [row.id, row.status])).toEqual([[photo.id, 'approved'], [video.id, 'rejected']])
  })

  it('starts again on the same database without applying a migration twice', async () => {
    // Media URLs name the server's address, which a new port changes; the rest must not.
    const listing = async () => (await galleryItems(server!.url)).map(item => [item.id, item.author, item.message, item.createdAt])
    const before = await listing()
    expect(before).toHaveLength(1)
    await server!.stop()
    server = await startServer(env())
    expect(await listing()).toEqual(before)
    const remote = createClient({ url: database.url })
    const applied = await remote.execute('SELECT count(*) AS n FROM "__drizzle_migrations"')
    remote.close()
    expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length)
  })
})
