import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { failoverBucketStore } from '../../server/utils/http/rate-limit-failover'
import { memoryBucketStore, redisBucketStore, type LimitBucket } from '../../server/utils/http/rate-limit-stores'
import { startRedis, type TestRedis } from '../support/redis'

// A real Redis (tests/support/redis.ts), frozen with SIGSTOP for a hung one.
const bucket = (key: string): LimitBucket[] => [{ name: 'test', key, rule: { capacity: 3, refillPerSecond: 0.001 } }]

/** Keeps this process busy, as a burst of requests does, without giving the event loop a turn. */
function busyFor(ms: number) {
  const until = Date.now() + ms
  while (Date.now() < until) { /* busy */ }
}

describe('the failover bucket store', () => {
  let redis: TestRedis
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(async () => {
    redis?.resume()
    await redis?.stop()
  })

  it('a process too busy to read Redis\'s answer in time still counts in Redis, and does not switch', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const store = failoverBucketStore(redisBucketStore(redis.url), memoryBucketStore())
    expect(await store.state()).toBe('ok')
    // Two of the three tokens taken in Redis: local counters would still hold three.
    expect([await store.take(bucket('busy')), await store.take(bucket('busy'))]).toEqual([0, 0])
    const waits = []
    for (let i = 0; i < 2; i++) {
      const take = store.take(bucket('busy'))
      busyFor(700)
      waits.push(await take)
    }
    expect(waits.map(wait => wait > 0)).toEqual([false, true])
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })

  it('a hung Redis: a take answers within the deadline from local counters, a PING confirms, one log line each way', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const store = failoverBucketStore(redisBucketStore(redis.url), memoryBucketStore())
    expect(await store.state()).toBe('ok')
    redis.pause()
    const started = performance.now()
    expect(await store.take(bucket('hung'))).toBe(0)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(await store.state()).toBe('unavailable')
    expect(warn.mock.calls.filter(([line]) => String(line).includes('Redis is unavailable'))).toHaveLength(1)
    // Local counters meanwhile: the same bucket fills up in this process.
    expect([await store.take(bucket('hung')), await store.take(bucket('hung'))]).toEqual([0, 0])
    expect(await store.take(bucket('hung'))).toBeGreaterThan(0)
    redis.resume()
    await vi.waitFor(async () => expect(await store.state()).toBe('ok'), { timeout: 5000, interval: 200 })
    expect(warn.mock.calls.filter(([line]) => String(line).includes('Redis answers again'))).toHaveLength(1)
    warn.mockRestore()
  })
})
