import { createClient } from '@libsql/client'
import { afterAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { jpeg } from '../support/fixtures'
import { startS3, type TestS3 } from '../support/s3'
import { startServer, type TestServer } from '../support/server'
import { putBytes } from '../support/uploads'

/**
 * A SIGKILL right after a burst of confirms: the photos whose derivation it took from memory are
 * picked up at start, from the database, and listed within seconds; /api/health counts them from
 * the database too. The sweeper is off (SWEEP_INTERVAL_SECONDS=0), so the start alone must do it.
 */
describe.each(['local', 's3'] as const)('photos confirmed just before a crash (%s driver)', (driver) => {
  let s3: TestS3 | undefined
  let server: TestServer | undefined
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await s3?.stop()
  })

  it('are derived at the next start and listed within seconds; health counts what waits', async () => {
    if (driver === 's3') s3 = await startS3()
    const env = { ...s3?.env, SWEEP_INTERVAL_SECONDS: '0', RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' }
    server = await startServer(env)
    const dir = server.dir
    // Large enough that derivation takes a while on two cores: several are still waiting at the kill.
    const photos = await Promise.all(Array.from({ length: 12 }, (_, n) => jpeg(4000, 3000, { r: n * 20, g: 100, b: 200 })))
    const ids: string[] = []
    for (const bytes of photos) {
      const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'p.jpg', contentType: 'image/jpeg', size: bytes.length, author: 'Ana' } })
      expect(init.status).toBe(201)
      expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
      ids.push(init.body.id)
    }
    const confirms = await Promise.all(ids.map(id => api(server!.url, `/api/uploads/${id}/confirm`, { method: 'POST' })))
    expect(confirms.map(answer => answer.status)).toEqual(ids.map(() => 200))
    server.proc.kill('SIGKILL')
    await server.stop('SIGKILL')

    const db = createClient({ url: `file:${server.dbPath}` })
    const waiting = Number((await db.execute('SELECT count(*) AS n FROM uploads WHERE confirmed_at IS NOT NULL AND derived_at IS NULL')).rows[0]!.n)
    db.close()
    // What this test is about: the kill left confirmed photos without their public images.
    expect(waiting).toBeGreaterThan(0)

    server = await startServer(env, dir)
    const health = await api(server.url, '/api/health')
    expect(health.status).toBe(200)
    expect(health.body.derivationBacklog).toBeLessThanOrEqual(waiting)
    expect(typeof health.body.derivationBacklog).toBe('number')

    const deadline = Date.now() + 30_000
    let listed: string[] = []
    while (Date.now() < deadline) {
      const gallery = await api(server.url, '/api/gallery?limit=100')
      listed = gallery.body.items.map((item: { id: string }) => item.id)
      if (ids.every(id => listed.includes(id))) break
      await new Promise(resolve => setTimeout(resolve, 250))
    }
    expect([...listed].sort()).toEqual([...ids].sort())
    expect((await api(server.url, '/api/health')).body.derivationBacklog).toBe(0)
  }, 120_000)
})
