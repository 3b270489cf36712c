import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { freePort } from '../support/ports'
import { ADMIN_EMAIL, startServer } from '../support/server'

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

describe('shared counters in Redis', () => {
  let redis: ChildProcess
  let port: number
  beforeAll(async () => {
    port = await freePort()
    // A real Redis server (Debian's redis-server, installed by .ci/run), not a mock.
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
    await new Promise(resolve => setTimeout(resolve, 300))
  })
  afterAll(() => {
    redis?.kill()
  })

  it('two instances count the same client together', async () => {
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` }
    const first = await startServer(env)
    const second = await startServer(env)
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
