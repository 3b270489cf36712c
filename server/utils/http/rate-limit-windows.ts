import type { Redis } from 'ioredis'

/**
 * Sliding windows: at most `limit` uses in any `windowMs`, counted from the times of the uses
 * themselves. Unlike a token bucket, an emptied window never lets a burst through at once: a use
 * leaves the window exactly `windowMs` after it entered, one by one as they came.
 */
export interface WindowRule {
  limit: number
  windowMs: number
}

/** One window: a rule applied to one key, e.g. the gallery PIN's guesses for the whole event. */
export interface LimitWindow {
  name: string
  key: string
  rule: WindowRule
}

/** What a window holds now: its uses, and while it is full, when the next use may enter (ms since the epoch). */
export interface WindowUse {
  count: number
  fullUntil: number | null
}

/**
 * Where the windows live. Each call is atomic, as a bucket's take is: uses that arrive together
 * cannot all pass on the last free place.
 */
export interface WindowStore {
  /** Records one use named `entry`, unless the window is full: 0, or the seconds until a place frees. */
  enter: (window: LimitWindow, entry: string) => Promise<number>
  /** Takes a use back out (a request the window does not count after all). */
  leave: (window: LimitWindow, entry: string) => Promise<void>
  /** Counts without recording. */
  use: (window: LimitWindow) => Promise<WindowUse>
}

/** The clock a window counts by, in ms since the epoch: the real one, or a test's moved one. */
export type WindowClock = () => number

/** When a full window holds fewer than `limit` uses again, given its times in order. */
function freeAtOf(times: number[], rule: WindowRule): number {
  return times[times.length - rule.limit]! + rule.windowMs
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000))
}

/**
 * One process's windows: each a list of uses in the order they entered. Every method runs to its
 * end synchronously, so no other request runs between a count and its write. A window that has
 * emptied is dropped when it is next read, so an event's key does not grow without bound.
 */
export function memoryWindowStore(now: WindowClock = Date.now): WindowStore {
  const windows = new Map<string, { at: number, entry: string }[]>()

  function current(window: LimitWindow, at: number) {
    const id = `${window.name}:${window.key}`
    const uses = (windows.get(id) ?? []).filter(use => use.at > at - window.rule.windowMs)
    if (uses.length) windows.set(id, uses)
    else windows.delete(id)
    return uses
  }

  return {
    async enter(window, entry) {
      const at = now()
      const uses = current(window, at)
      if (uses.length >= window.rule.limit) return secondsUntil(freeAtOf(uses.map(use => use.at), window.rule), at)
      uses.push({ at, entry })
      windows.set(`${window.name}:${window.key}`, uses)
      return 0
    },
    async leave(window, entry) {
      const uses = current(window, now())
      const index = uses.findIndex(use => use.entry === entry)
      if (index >= 0) uses.splice(index, 1)
    },
    async use(window) {
      const at = now()
      const times = current(window, at).map(use => use.at)
      const full = times.length >= window.rule.limit
      return { count: times.length, fullUntil: full ? freeAtOf(times, window.rule) : null }
    },
  }
}

/**
 * The same, in Redis as one script per call on a sorted set (score: the time of the use), so
 * every instance sharing it counts one window. The clock is Redis's own, as for the buckets
 * (instances whose clocks differ still agree on when a use leaves), unless ARGV[2] gives the time.
 * KEYS[1]: the window. ARGV: 'enter' | 'leave' | 'use', the time in ms or '' for Redis's, the
 * limit, the window in ms, the entry.
 * Returns, for enter: 0 or the seconds until a place frees; for use: { count, fullUntil or -1 }.
 */
const WINDOW_SCRIPT = `
local now = tonumber(ARGV[2])
if not now then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end
local limit = tonumber(ARGV[3])
local span = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - span)
if ARGV[1] == 'leave' then
  redis.call('ZREM', KEYS[1], ARGV[5])
  return 0
end
local count = redis.call('ZCARD', KEYS[1])
local freeAt = -1
if count >= limit then
  local nth = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  freeAt = tonumber(nth[2]) + span
end
if ARGV[1] == 'use' then
  return { count, freeAt }
end
if freeAt >= 0 then return math.max(1, math.ceil((freeAt - now) / 1000)) end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], span)
return 0
`

interface WindowRedis extends Redis {
  slidingWindow: (keyCount: number, ...keysThenArgs: (string | number)[]) => Promise<unknown>
}

/** Windows in Redis (REDIS_URL), through the client the buckets use; by Redis's clock unless given one. */
export function redisWindowStore(redis: Redis, now?: WindowClock): WindowStore {
  const client = redis as WindowRedis
  client.defineCommand('slidingWindow', { lua: WINDOW_SCRIPT })
  const call = (mode: 'enter' | 'leave' | 'use', window: LimitWindow, entry = '') => client.slidingWindow(
    1,
    `event-media:ratelimit-window:${window.name}:${window.key}`,
    mode,
    now ? Math.round(now()) : '',
    window.rule.limit,
    window.rule.windowMs,
    entry,
  )
  return {
    async enter(window, entry) {
      return Number(await call('enter', window, entry))
    },
    async leave(window, entry) {
      await call('leave', window, entry)
    },
    async use(window) {
      const [count, fullUntil] = (await call('use', window)) as [number, number]
      return { count: Number(count), fullUntil: Number(fullUntil) < 0 ? null : Number(fullUntil) }
    },
  }
}
