import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'

export interface BucketRule {
  /** Requests allowed in a burst. */
  capacity: number
  /** Tokens given back per second. */
  refillPerSecond: number
}

let store: BucketStore | undefined
let checked: CheckedBucketStore | undefined

/**
 * Token buckets and sliding windows: in this process's memory on one instance, in Redis when REDIS_URL is set so
 * several instances share the counters (and in memory again while Redis does not answer).
 */
function bucketStore(): BucketStore {
  if (!store) {
    const { REDIS_URL } = useConfig()
    const clock = testWindowClock()
    if (REDIS_URL) store = checked = failoverBucketStore(redisBucketStore(REDIS_URL, clock), memoryBucketStore(clock))
    else store = memoryBucketStore(clock)
  }
  return store
}

/** For `/api/health`: `memory` without REDIS_URL, else whether Redis answers right now. */
export async function rateLimitStoreState(): Promise<RateLimitStoreState> {
  bucketStore()
  return checked ? checked.state() : 'memory'
}

export function rateLimited(retryAfterSeconds: number) {
  return apiError(429, ErrorCode.RATE_LIMITED, 'Too many requests', { retryAfter: retryAfterSeconds })
}

/**
 * Takes one token from each bucket in one atomic step, or none: throws 429 (with `retry-after`)
 * when any of them is empty. Taken before the work it limits, never after, so requests that
 * arrive together cannot all pass on one remaining token.
 */
export async function takeTokens(event: H3Event, buckets: LimitBucket[]): Promise<void> {
  const wait = await bucketStore().take(buckets)
  if (wait === 0) return
  setResponseHeader(event, 'retry-after', wait)
  throw rateLimited(wait)
}

/** Takes one token; throws 429 when there was none. */
export async function consumeToken(event: H3Event, name: string, key: string, rule: BucketRule): Promise<void> {
  await takeTokens(event, [{ name, key, rule }])
}

/** Gives back the tokens a request took, when it turned out to be one the limit does not count. */
export async function returnTokens(buckets: LimitBucket[]): Promise<void> {
  await bucketStore().giveBack(buckets)
}

/**
 * Records this request in a sliding window under `entry` (unique to the request); throws 429 (with
 * `retry-after`: until the oldest use leaves) when the window is full.
 */
export async function enterWindow(event: H3Event, window: LimitWindow, entry: string): Promise<void> {
  const wait = await bucketStore().enter(window, entry)
  if (wait === 0) return
  setResponseHeader(event, 'retry-after', wait)
  throw rateLimited(wait)
}

/** Takes a request's use back out of a window, when it turned out to be one the window does not count. */
export async function leaveWindow(window: LimitWindow, entry: string): Promise<void> {
  await bucketStore().leave(window, entry)
}

/** What a window holds now, for the admin. */
export async function windowUse(window: LimitWindow): Promise<WindowUse> {
  return bucketStore().use(window)
}
