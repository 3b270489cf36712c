import type { H3Event } from 'h3'

/**
 * Wrong PINs per client, as wrong logins: 10 at once, then one per 30 s. A 4-digit PIN has 10,000
 * values, so a script at this pace needs days per address; a guest mistyping twice never notices.
 */
const PER_CLIENT: BucketRule = { capacity: 10, refillPerSecond: 1 / 30 }

export function pinBuckets(event: H3Event): LimitBucket[] {
  return [{ name: 'gallery-pin-client', key: clientKey(event), rule: PER_CLIENT }]
}
