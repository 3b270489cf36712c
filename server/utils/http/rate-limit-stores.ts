import { Redis } from 'ioredis'
import { memoryWindowStore, redisWindowStore, type WindowClock, type WindowStore } from './rate-limit-windows'

/** One token bucket: a rule applied to one key, e.g. failed logins for one email. */
export interface LimitBucket {
  name: string
  key: string
  rule: BucketRule
}

/**
 * Where the buckets (and the sliding windows) live. Each call is atomic over all its buckets: a
 * take reads and writes with nothing in between, so a burst of parallel requests cannot all read
 * the same full bucket.
 */
export interface BucketStore extends WindowStore {
  /** Takes a token from every bucket, or from none when one is empty: 0, or the seconds until it refills. */
  take: (buckets: LimitBucket[]) => Promise<number>
  /** Gives a token back to every bucket (never above its capacity). */
  giveBack: (buckets: LimitBucket[]) => Promise<void>
}

interface Level { tokens: number, at: number }

function refilled(level: Level | undefined, rule: BucketRule, now: number): number {
  if (!level) return rule.capacity
  return Math.min(rule.capacity, level.tokens + (Math.max(0, now - level.at) / 1000) * rule.refillPerSecond)
}

function secondsUntilToken(tokens: number, rule: BucketRule): number {
  return Math.max(1, Math.ceil((1 - tokens) / rule.refillPerSecond))
}

const SWEEP_EVERY_MS = 60_000

/**
 * One process's buckets in a Map. Every method runs to its end synchronously (the promise is only
 * the interface's shape), so no other request can run between a bucket's read and its write.
 */
export function memoryBucketStore(clock?: WindowClock): BucketStore {
  const levels = new Map<string, Level & { fullAt: number }>()
  let sweptAt = Date.now()

  // A bucket that has refilled to capacity is the same as no entry: drop those, so addresses seen
  // once do not stay in memory for the life of the process.
  function sweep(now: number) {
    if (now - sweptAt < SWEEP_EVERY_MS) return
    sweptAt = now
    for (const [id, level] of levels) if (level.fullAt <= now) levels.delete(id)
  }

  function apply(buckets: LimitBucket[], change: 1 | -1, now: number) {
    for (const { name, key, rule } of buckets) {
      const id = `${name}:${key}`
      const tokens = Math.min(rule.capacity, refilled(levels.get(id), rule, now) + change)
      levels.set(id, { tokens, at: now, fullAt: now + ((rule.capacity - tokens) / rule.refillPerSecond) * 1000 })
    }
  }

  return {
    ...memoryWindowStore(clock),
    async take(buckets) {
      const now = Date.now()
      sweep(now)
      let wait = 0
      for (const { name, key, rule } of buckets) {
        const tokens = refilled(levels.get(`${name}:${key}`), rule, now)
        if (tokens < 1) wait = Math.max(wait, secondsUntilToken(tokens, rule))
      }
      if (wait === 0) apply(buckets, -1, now)
      return wait
    },
    async giveBack(buckets) {
      apply(buckets, 1, Date.now())
    },
  }
}

/**
 * The same arithmetic as the memory store, run inside Redis as one script: Redis runs a script
 * with nothing else in between, so every instance sharing it sees one bucket. The clock is Redis's
 * own, so instances whose clocks differ still refill a bucket at one rate.
 * KEYS: the buckets. ARGV: 'take' or 'give', then each bucket's capacity and refill per second.
 * Returns 0, or the seconds until a refused take could succeed.
 */
const BUCKETS_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local take = ARGV[1] == 'take'
local levels = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i])
  local refill = tonumber(ARGV[2 * i + 1])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = capacity
  if state[1] then
    tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) / 1000 * refill)
  end
  levels[i] = tokens
  if tokens < 1 then wait = math.max(wait, math.ceil((1 - tokens) / refill)) end
end
if take and wait > 0 then return math.max(1, wait) end
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i])
  local refill = tonumber(ARGV[2 * i + 1])
  local tokens = take and levels[i] - 1 or math.min(capacity, levels[i] + 1)
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil((capacity - tokens) / refill * 1000) + 1000)
end
return 0
`

interface BucketsRedis extends Redis {
  buckets: (keyCount: number, ...keysThenArgs: (string | number)[]) => Promise<number>
}

/** A bucket store in Redis, with the client it talks through (the failover store watches it). */
export interface RedisBucketStore extends BucketStore {
  client: Redis
}

/**
 * Buckets in Redis (REDIS_URL), shared by every instance: one script call per take. A command
 * that cannot be sent at once fails at once (no offline queue while reconnecting, no retries), so
 * a dead Redis is an error the caller can act on, never a request waiting for a reconnection.
 */
export function redisBucketStore(url: string, clock?: WindowClock): RedisBucketStore {
  const client = new Redis(url, {
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    // Reconnects for ever (the failover store returns to Redis when it is back), at most every 2 s.
    retryStrategy: times => Math.min(times * 100, 2000),
  }) as BucketsRedis
  // ioredis sends EVALSHA and falls back to EVAL once after a Redis restart.
  client.defineCommand('buckets', { lua: BUCKETS_SCRIPT })

  const call = (mode: 'take' | 'give', buckets: LimitBucket[]) => client.buckets(
    buckets.length,
    ...buckets.map(({ name, key }) => `event-media:ratelimit:${name}:${key}`),
    mode,
    ...buckets.flatMap(({ rule }) => [rule.capacity, rule.refillPerSecond]),
  )
  return {
    client,
    ...redisWindowStore(client, clock),
    async take(buckets) {
      return Number(await call('take', buckets))
    },
    async giveBack(buckets) {
      await call('give', buckets)
    },
  }
}
