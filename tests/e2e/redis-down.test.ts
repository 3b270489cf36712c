import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jpeg } from '../support/fixtures'
import { api, type JsonResponse } from '../support/http'
import { startRedis, type TestRedis } from '../support/redis'
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server'
import { uploadFile } from '../support/uploads'

const SWITCHED = '[rate-limit] Redis is unavailable'
const BACK = '[rate-limit] Redis answers again'

/**
 * The answer and how long it took. The bound is not a speed target: a limiter waiting on a dead
 * Redis used to hold every request 10–32 s before a 500, and this tells an answer from a hang on
 * a shared, busy test machine (a login's password hash alone may take a second there).
 */
async function timed(send: () => Promise<JsonResponse>): Promise<JsonResponse & { ms: number }> {
  const started = performance.now()
  const response = await send()
  return { ...response, ms: performance.now() - started }
}
const PROMPT_MS = 5000

const occurrences = (text: string, needle: string) => text.split(needle).length - 1

async function until(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

const wrongPassword = (server: TestServer, email: string) =>
  api(server.url, '/api/admin/login', { method: 'POST', json: { email, password: 'wrong' } })

describe('Redis stopped and started again under two instances sharing it', () => {
  let redis: TestRedis
  let servers: TestServer[]
  beforeAll(async () => {
    redis = await startRedis()
    servers = [await startServer(redis.env), await startServer(redis.env)]
  })
  afterAll(async () => {
    for (const server of servers ?? []) await server.stop()
    await redis?.stop()
  })

  it('while Redis answers: health ok with rateLimitStore ok, and the instances count one client together', async () => {
    const health = await api(servers[0]!.url, '/api/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'ok', database: 'ok', storage: 'ok', rateLimitStore: 'ok' })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await wrongPassword(servers[i % 2]!, 'before@example.com')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })

  it('with Redis stopped, login with the right password, init, confirm and the QR code answer promptly and correctly', async () => {
    await redis.stop()
    const [server] = servers
    const loginAnswer = await timed(() => api(server!.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }))
    expect(loginAnswer.status).toBe(200)
    expect(loginAnswer.ms).toBeLessThan(PROMPT_MS)

    const qr = await timed(() => api(server!.url, '/api/qrcode?format=svg'))
    expect(qr.status).toBe(200)
    expect(qr.headers.get('content-type')).toContain('image/svg+xml')
    expect(qr.ms).toBeLessThan(PROMPT_MS)

    const started = performance.now()
    const photo = await jpeg()
    const { init, confirm } = await uploadFile(server!.url, photo, { fileName: 'a.jpg', contentType: 'image/jpeg', size: photo.length })
    expect(performance.now() - started).toBeLessThan(2 * PROMPT_MS)
    expect(init.status).toBe('pending')
    expect(confirm.status).toBe(200)
    expect(confirm.body).toMatchObject({ id: init.id, status: 'approved' })
  })

  it('with Redis stopped: health answers 200 degraded with rateLimitStore unavailable', async () => {
    const health = await timed(() => api(servers[1]!.url, '/api/health'))
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'degraded', database: 'ok', storage: 'ok', rateLimitStore: 'unavailable' })
    expect(health.ms).toBeLessThan(PROMPT_MS)
  })

  it('with Redis stopped, each instance still limits on its own counters, and says so once in its log', async () => {
    for (const server of servers) {
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await wrongPassword(server, 'during@example.com')).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
      expect(occurrences(server.output(), SWITCHED)).toBe(1)
      expect(occurrences(server.output(), BACK)).toBe(0)
    }
  })

  it('once Redis is back: health ok again, one log line each, and the counters are shared again', async () => {
    await redis.start()
    for (const server of servers) {
      await until(async () => (await api(server.url, '/api/health')).body.rateLimitStore === 'ok')
      expect((await api(server.url, '/api/health')).body).toMatchObject({ status: 'ok', rateLimitStore: 'ok' })
      expect(occurrences(server.output(), BACK)).toBe(1)
      expect(occurrences(server.output(), SWITCHED)).toBe(1)
    }
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await wrongPassword(servers[i % 2]!, 'after@example.com')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })
})

describe('Redis unreachable from the start', () => {
  let redis: TestRedis
  let server: TestServer
  beforeAll(async () => {
    redis = await startRedis()
    await redis.stop()
    server = await startServer(redis.env)
  })
  afterAll(async () => {
    await server?.stop()
    await redis?.stop()
  })

  it('init answers promptly on local counters, health says degraded, and the switch is logged once', async () => {
    for (let i = 0; i < 3; i++) {
      const init = await timed(() => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 } }))
      expect(init.status).toBe(201)
      expect(init.ms).toBeLessThan(PROMPT_MS)
    }
    const health = await api(server.url, '/api/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'degraded', rateLimitStore: 'unavailable' })
    expect(occurrences(server.output(), SWITCHED)).toBe(1)
  })
})

describe('Redis that accepts connections and never answers (a hung process)', () => {
  let redis: TestRedis
  let server: TestServer
  beforeAll(async () => {
    redis = await startRedis()
    server = await startServer(redis.env)
  })
  afterAll(async () => {
    redis?.resume()
    await server?.stop()
    await redis?.stop()
  })

  it('a take gives up on Redis after its deadline, later ones use local counters, and Redis is used again once it answers', async () => {
    expect((await api(server.url, '/api/health')).body.rateLimitStore).toBe('ok')
    redis.pause()
    const first = await timed(() => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 } }))
    expect(first.status).toBe(201)
    expect(first.ms).toBeLessThan(PROMPT_MS)
    const qr = await timed(() => api(server.url, '/api/qrcode?format=svg'))
    expect(qr.status).toBe(200)
    expect(qr.ms).toBeLessThan(PROMPT_MS)
    const health = await timed(() => api(server.url, '/api/health'))
    expect(health.body).toMatchObject({ status: 'degraded', rateLimitStore: 'unavailable' })
    expect(health.ms).toBeLessThan(PROMPT_MS)
    expect(occurrences(server.output(), SWITCHED)).toBe(1)

    redis.resume()
    await until(async () => (await api(server.url, '/api/health')).body.rateLimitStore === 'ok')
    expect(occurrences(server.output(), BACK)).toBe(1)
  })
})
