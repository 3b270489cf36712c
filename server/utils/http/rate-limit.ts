import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'

export interface BucketRule {
  /** Requests allowed in a burst. */
  capacity: number
  /** Tokens given back per second. */
  refillPerSecond: number
}

interface Bucket { tokens: number, at: number }

/**
 * Token buckets kept in Nitro storage (`ratelimit` mount): memory on one instance, Redis when
 * REDIS_URL is set so several instances share the counters.
 */
async function readBucket(name: string, key: string, rule: BucketRule, now: number): Promise<Bucket> {
  const stored = await useStorage('ratelimit').getItem<Bucket>(`${name}:${key}`)
  if (!stored) return { tokens: rule.capacity, at: now }
  const refilled = stored.tokens + ((now - stored.at) / 1000) * rule.refillPerSecond
  return { tokens: Math.min(rule.capacity, refilled), at: now }
}

function secondsUntilToken(bucket: Bucket, rule: BucketRule): number {
  return Math.max(1, Math.ceil((1 - bucket.tokens) / rule.refillPerSecond))
}

export function rateLimited(retryAfterSeconds: number) {
  return apiError(429, ErrorCode.RATE_LIMITED, 'Too many requests', { retryAfter: retryAfterSeconds })
}

/** Throws 429 (with `retry-after`) when the bucket is empty, without taking a token. */
export async function assertNotLimited(event: H3Event, name: string, key: string, rule: BucketRule): Promise<void> {
  const bucket = await readBucket(name, key, rule, Date.now())
  if (bucket.tokens >= 1) return
  const wait = secondsUntilToken(bucket, rule)
  setResponseHeader(event, 'retry-after', wait)
  throw rateLimited(wait)
}

/** Takes one token; throws 429 when there was none. */
export async function consumeToken(event: H3Event, name: string, key: string, rule: BucketRule): Promise<void> {
  await assertNotLimited(event, name, key, rule)
  await recordHit(name, key, rule)
}

/** Takes one token without refusing: for counting failures after the fact. */
export async function recordHit(name: string, key: string, rule: BucketRule): Promise<void> {
  const now = Date.now()
  const bucket = await readBucket(name, key, rule, now)
  const ttl = Math.ceil(rule.capacity / rule.refillPerSecond) + 1
  await useStorage('ratelimit').setItem(`${name}:${key}`, { tokens: Math.max(0, bucket.tokens - 1), at: now }, { ttl })
}
