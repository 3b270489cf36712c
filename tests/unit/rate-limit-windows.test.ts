import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failoverBucketStore } from '../../server/utils/http/rate-limit-failover'
import { memoryBucketStore, redisBucketStore, type RedisBucketStore } from '../../server/utils/http/rate-limit-stores'
import type { LimitWindow, WindowStore } from '../../server/utils/http/rate-limit-windows'
import { startRedis, type TestRedis } from '../support/redis'

const HOUR = 60 * 60 * 1000
const T0 = Date.UTC(2026, 11, 12, 20, 0, 0)

let windows = 0
/** A window of its own for each test: 10 uses an hour. */
function freshWindow(): LimitWindow {
  return { name: 'test-window', key: `w${windows++}-${Math.random()}`, rule: { limit: 10, windowMs: HOUR } }
}

/** Enters `count` uses at once and answers the waits (0: entered). */
async function enterMany(store: WindowStore, window: LimitWindow, count: number, tag: string): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => store.enter(window, `${tag}-${i}`)))
}

const entered = (waits: number[]) => waits.filter(wait => wait === 0).length

// The same behaviour from the memory store, from Redis (a real redis-server), and from the failover
// store in front of Redis, each on a clock the test moves.
describe.each(['memory', 'redis', 'failover'] as const)('a sliding window (%s store)', (kind) => {
  let redis: TestRedis | undefined
  let now = T0
  const clock = () => now
  let store: WindowStore
  let shared: RedisBucketStore | undefined

  beforeAll(async () => {
    if (kind !== 'memory') {
      redis = await startRedis()
      shared = redisBucketStore(redis.url, clock)
    }
    store = kind === 'memory' ? memoryBucketStore(clock) : kind === 'redis' ? shared! : failoverBucketStore(shared!, memoryBucketStore(clock))
  })
  afterAll(async () => {
    shared?.client.disconnect()
    await redis?.stop()
  })

  it('a burst gets exactly the limit; the refusals wait until the oldest use leaves', async () => {
    now = T0
    const window = freshWindow()
    const waits = await enterMany(store, window, 25, 'burst')
    expect(entered(waits)).toBe(10)
    expect(waits.filter(wait => wait > 0)).toEqual(Array(15).fill(3600))
    expect(await store.use(window)).toEqual({ count: 10, fullUntil: T0 + HOUR })
    now = T0 + 20 * 60 * 1000
    expect(await store.enter(window, 'later')).toBe(40 * 60)
  })

  it('never refills at once: half an hour on, only what left the window enters again, one use at a time', async () => {
    now = T0
    const window = freshWindow()
    expect(entered(await enterMany(store, window, 6, 'first'))).toBe(6)
    now = T0 + 30 * 60 * 1000
    // A bucket of 10 an hour would hold 4 + 5 here; the window has room for 4 only.
    expect(entered(await enterMany(store, window, 10, 'second'))).toBe(4)
    // A millisecond before the first six leave: still full.
    now = T0 + HOUR - 1
    expect(await store.enter(window, 'early')).toBe(1)
    expect(await store.use(window)).toEqual({ count: 10, fullUntil: T0 + HOUR })
    // The first six leave together (they entered together); the four later ones stay.
    now = T0 + HOUR
    expect(entered(await enterMany(store, window, 10, 'third'))).toBe(6)
    expect((await store.use(window)).count).toBe(10)
    now = T0 + HOUR + 30 * 60 * 1000
    expect(entered(await enterMany(store, window, 10, 'fourth'))).toBe(4)
  })

  it('a use taken back frees its place at once, and only its own', async () => {
    now = T0
    const window = freshWindow()
    expect(entered(await enterMany(store, window, 10, 'full'))).toBe(10)
    expect(await store.enter(window, 'refused')).toBe(3600)
    await store.leave(window, 'full-3')
    await store.leave(window, 'never-entered')
    expect(await store.use(window)).toEqual({ count: 9, fullUntil: null })
    expect(await store.enter(window, 'again')).toBe(0)
    expect(await store.enter(window, 'one-more')).toBe(3600)
  })

  it('an empty window counts nothing and is not full', async () => {
    expect(await store.use(freshWindow())).toEqual({ count: 0, fullUntil: null })
  })
})
