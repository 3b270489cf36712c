import { createClient } from '@libsql/client'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api, login } from '../support/http'
import { startServer, type TestServer } from '../support/server'
import { jpeg, mp4 } from '../support/fixtures'
import { keyOfUrl, putBytes } from '../support/uploads'

async function countUploads(server: TestServer) {
  const db = createClient({ url: `file:${server.dbPath}` })
  const { rows } = await db.execute('SELECT count(*) AS n, sum(confirmed_at IS NOT NULL) AS confirmed FROM uploads')
  db.close()
  return { total: Number(rows[0]!.n), confirmed: Number(rows[0]!.confirmed ?? 0) }
}

describe('storage unreachable', () => {
  const server = useTestServer({ s3: true })

  it('init answers 503 STORAGE_UNAVAILABLE and keeps no record; confirm answers 503, keeps the record pending, and a retry succeeds', async () => {
    const bytes = await jpeg()
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })).body
    expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(200)
    const before = await countUploads(server)

    await server.s3.stop()
    // Past the 5 s in which a good ping is trusted.
    await new Promise(resolve => setTimeout(resolve, 5200))
    for (const body of [
      { fileName: 'b.jpg', contentType: 'image/jpeg', size: 100 },
      { fileName: 'v.mp4', contentType: 'video/mp4', size: 60 * 1024 * 1024, durationSec: 4 },
    ]) {
      const refused = await api(server.url, '/api/uploads/init', { method: 'POST', json: body })
      expect(refused.status).toBe(503)
      expect(refused.body.data).toEqual({ code: 'STORAGE_UNAVAILABLE' })
    }
    expect(await countUploads(server)).toEqual(before)

    const down = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(down.status).toBe(503)
    expect(down.body.data).toEqual({ code: 'STORAGE_UNAVAILABLE' })
    const health = await api(server.url, '/api/health')
    expect(health.status).toBe(503)
    expect(health.body).toMatchObject({ status: 'degraded', database: 'ok', storage: 'unavailable' })
    expect(await countUploads(server)).toEqual(before)

    await server.restartS3()
    const retried = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(retried.status).toBe(200)
    expect(retried.body).toEqual({ id: created.id, status: 'approved' })
    expect((await api(server.url, '/api/health')).body).toMatchObject({ status: 'ok', database: 'ok', storage: 'ok', storageDriver: 's3' })
  }, 30_000)
})

describe('health', () => {
  const server = useTestServer()

  it('reports database, storage, driver and version', async () => {
    const health = await api(server.url, '/api/health')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok', database: 'ok', storage: 'ok', rateLimitStore: 'memory', storageDriver: 'local', version: expect.stringMatching(/^\d+\.\d+\.\d+/), uptimeSec: expect.any(Number), derivationBacklog: 0 })
    expect(health.headers.get('cache-control')).toBe('no-store')
  })
})

describe('graceful shutdown', () => {
  it('on SIGTERM an upload in flight finishes, new connections are refused, and the process exits 0', async () => {
    const server = await startServer()
    const cookie = await login(server.url)
    expect(cookie).toContain('em_admin=')
    const bytes = mp4(8 * 1024 * 1024)
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 3 } })).body

    // A slow phone: the body trickles in over ~1.5 s.
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const chunk = 512 * 1024
        for (let offset = 0; offset < bytes.length; offset += chunk) {
          controller.enqueue(bytes.subarray(offset, offset + chunk))
          await new Promise(resolve => setTimeout(resolve, 90))
        }
        controller.close()
      },
    })
    const inFlight = fetch(created.upload.url, { method: 'PUT', body: stream, headers: { ...created.upload.headers, 'content-length': String(bytes.length) }, duplex: 'half' } as RequestInit)
    await new Promise(resolve => setTimeout(resolve, 300))
    const exited = server.stop('SIGTERM')
    await new Promise(resolve => setTimeout(resolve, 200))
    await expect(fetch(`${server.url}/api/event`)).rejects.toThrow()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await exited).toBe(0)

    // The bytes it accepted are really there: a restart on the same data confirms the upload.
    const again = await startServer({ PORT: String(server.port) }, server.dir)
    try {
      expect((await api(again.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).body).toEqual({ id: created.id, status: 'approved' })
    }
    finally {
      await again.stop()
    }
  })
})

describe('deleting bytes while storage is down', () => {
  const server = useTestServer({ s3: true, admin: true, env: { SWEEP_INTERVAL_SECONDS: '1' } })

  it('the record goes at once, the bytes are queued, and the sweeper removes them when storage is back', async () => {
    const bytes = await jpeg()
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })).body
    await putBytes(created.upload.url, bytes, created.upload.headers)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const key = keyOfUrl(created.upload.url)

    await server.s3.stop()
    const deleted = await api(server.url, `/api/admin/uploads/${created.id}`, { method: 'DELETE', cookie: server.cookie })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ id: created.id, deleted: true })
    const db = createClient({ url: `file:${server.dbPath}` })
    const queued = (await db.execute('SELECT key FROM pending_deletions')).rows.map(row => String(row.key))
    expect(queued).toContain(key)

    await server.restartS3()
    expect(await server.probe.exists(key)).toBe(true)
    // The first retry waits a minute; make it due now instead of waiting.
    await db.execute('UPDATE pending_deletions SET next_attempt_at = 0')
    let left = queued.length
    for (let i = 0; i < 60 && left > 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 100))
      left = Number((await db.execute('SELECT count(*) FROM pending_deletions')).rows[0]![0])
    }
    db.close()
    expect(left).toBe(0)
    expect(await server.probe.exists(key)).toBe(false)
  }, 30_000)
})
