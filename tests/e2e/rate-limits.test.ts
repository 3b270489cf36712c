import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { api, type JsonResponse } from '../support/http'
import { startRedis, type TestRedis } from '../support/redis'
import { ADMIN_EMAIL, startServer, type TestServer } from '../support/server'

describe('upload rate limits', () => {
  it('init and confirm are limited per client with 429 RATE_LIMITED and retry-after; X-Forwarded-For does not reset them', async () => {
    const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '5' })
    try {
      const init = (headers: Record<string, string> = {}) => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 }, headers })
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await init()).status)
      expect(statuses).toEqual([201, 201, 201, 201, 201])
      const limited = await init({ 'x-forwarded-for': `10.0.0.${Math.floor(Math.random() * 200)}` })
      expect(limited.status).toBe(429)
      expect(limited.body.data.code).toBe('RATE_LIMITED')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      // Confirm has a bucket of its own.
      expect((await api(server.url, '/api/uploads/nope/confirm', { method: 'POST' })).status).toBe(404)
    }
    finally {
      await server.stop()
    }
  })
})

describe('abort and refresh share the per-client budget', () => {
  it('each answers 429 RATE_LIMITED with retry-after past RATE_LIMIT_UPLOADS_PER_MINUTE, on a counter of its own', async () => {
    const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '3' })
    try {
      for (const action of ['abort', 'refresh']) {
        const send = () => api(server.url, `/api/uploads/nope123/${action}`, { method: 'POST', json: action === 'refresh' ? { partNumbers: [1] } : {} })
        const answers = [await send(), await send(), await send(), await send()]
        expect(answers.map(a => a.status), action).toEqual([404, 404, 404, 429])
        expect(answers[3]!.body.data.code).toBe('RATE_LIMITED')
        expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      }
      // Init keeps its own budget.
      expect((await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 } })).status).toBe(201)
    }
    finally {
      await server.stop()
    }
  })
})

describe('shared counters in Redis', () => {
  let redis: TestRedis
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  it('two instances count the same client together', async () => {
    const first = await startServer(redis.env)
    const second = await startServer(redis.env)
    try {
      const fail = (base: string) => api(base, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: 'wrong' } })
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await fail(i % 2 ? second.url : first.url)).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    }
    finally {
      await first.stop()
      await second.stop()
    }
  })
})

const UPLOADS_PER_MINUTE = 20
const initBody = { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 }

/** Fires every request at once and waits for all the answers. */
function burst(count: number, send: (i: number) => Promise<JsonResponse>): Promise<JsonResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(i)))
}

const from = (address: string) => ({ 'x-forwarded-for': address })

/** How many answers had each status, e.g. `{ 201: 20, 429: 60 }`. */
function tally(responses: JsonResponse[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

/** Every refusal is the contract's: 429 RATE_LIMITED with a retry-after of at least a second. */
function expectRefusalsLimited(responses: JsonResponse[]) {
  for (const response of responses.filter(r => r.status === 429)) {
    expect(response.body.data.code).toBe('RATE_LIMITED')
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  }
}

// A bucket taken in two steps (read, then write after an await) lets every request of a burst read
// the same full bucket: the limit must hold however the requests are spread in time.
describe.each(['memory', 'redis'] as const)('a burst of parallel requests gets exactly the limit (%s store)', (store) => {
  let redis: TestRedis | undefined
  let server: TestServer
  beforeAll(async () => {
    redis = store === 'redis' ? await startRedis() : undefined
    // Each test comes from an address of its own (through the trusted proxy), so its buckets start full.
    server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE), TRUST_PROXY: 'x-forwarded-for', ...redis?.env })
  })
  afterAll(async () => {
    await server?.stop()
    await redis?.stop()
  })

  it(`80 parallel inits against ${UPLOADS_PER_MINUTE} a minute: exactly ${UPLOADS_PER_MINUTE} × 201, the rest 429 RATE_LIMITED`, async () => {
    const responses = await burst(80, () => api(server.url, '/api/uploads/init', { method: 'POST', json: initBody, headers: from('198.51.100.1') }))
    expect(tally(responses)).toEqual({ 201: UPLOADS_PER_MINUTE, 429: 80 - UPLOADS_PER_MINUTE })
    expectRefusalsLimited(responses)
  })

  it('60 parallel wrong passwords for one email: exactly 5 are evaluated (401), 55 × 429', async () => {
    const responses = await burst(60, i => api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: `wrong-${i}` }, headers: from('198.51.100.2') }))
    expect(tally(responses)).toEqual({ 401: 5, 429: 55 })
    expectRefusalsLimited(responses)
  })

  it('60 parallel guesses at different emails from one client: exactly 10 are evaluated (401), 50 × 429', async () => {
    const responses = await burst(60, i => api(server.url, '/api/admin/login', { method: 'POST', json: { email: `guess-${i}@example.com`, password: 'x' }, headers: from('198.51.100.3') }))
    expect(tally(responses)).toEqual({ 401: 10, 429: 50 })
    expectRefusalsLimited(responses)
  })

  it('120 parallel QR cards: the 60-card bucket, plus at most the one a second it refills while the burst lasts', async () => {
    const started = Date.now()
    const responses = await burst(120, () => api(server.url, '/api/qrcode?format=svg', { headers: from('198.51.100.4') }))
    const refilled = Math.ceil((Date.now() - started) / 1000)
    const counts = tally(responses)
    expect((counts[200] ?? 0) + (counts[429] ?? 0)).toBe(120)
    expect(counts[200]).toBeGreaterThanOrEqual(60)
    expect(counts[200]).toBeLessThanOrEqual(60 + refilled)
    expectRefusalsLimited(responses)
  })
})

describe('two instances sharing one Redis', () => {
  let redis: TestRedis
  let servers: TestServer[]
  beforeAll(async () => {
    redis = await startRedis()
    servers = [
      await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE), ...redis.env }),
      await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE), ...redis.env }),
    ]
  })
  beforeEach(async () => {
    await redis.flush()
  })
  afterAll(async () => {
    for (const server of servers ?? []) await server.stop()
    await redis?.stop()
  })

  it(`80 parallel inits spread over both: exactly ${UPLOADS_PER_MINUTE} × 201 together`, async () => {
    const responses = await burst(80, i => api(servers[i % 2]!.url, '/api/uploads/init', { method: 'POST', json: initBody }))
    expect(tally(responses)).toEqual({ 201: UPLOADS_PER_MINUTE, 429: 80 - UPLOADS_PER_MINUTE })
    expectRefusalsLimited(responses)
  })

  it('60 parallel wrong passwords for one email spread over both: exactly 5 are evaluated together', async () => {
    const responses = await burst(60, i => api(servers[i % 2]!.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: `wrong-${i}` } }))
    expect(tally(responses)).toEqual({ 401: 5, 429: 55 })
    expectRefusalsLimited(responses)
  })
})
