import type { H3Event } from 'h3'

const PER_CLIENT: BucketRule = { capacity: 10, refillPerSecond: 1 / 30 }
const PER_EMAIL: BucketRule = { capacity: 5, refillPerSecond: 1 / 60 }
// OWASP's lockout per device cookie: a stolen cookie gets no more guesses than anyone gets at one
// email, and while it is locked the login is refused whatever the password.
const PER_DEVICE: BucketRule = { capacity: 5, refillPerSecond: 1 / 60 }

/**
 * The buckets a login for `email` (normalised) takes from. A device whose cookie proves an earlier
 * login for this email has a bucket of its own and skips the per-email and per-address ones, which
 * anyone can empty (a guest on the venue's Wi-Fi shares the admin's address). Everyone else is
 * limited per address and per email, so online guessing stays slow.
 */
export async function loginBuckets(event: H3Event, email: string): Promise<LimitBucket[]> {
  const device = await knownDeviceOf(event, email)
  if (device) return [{ name: 'login-device', key: device, rule: PER_DEVICE }]
  return [
    { name: 'login-client', key: clientKey(event), rule: PER_CLIENT },
    { name: 'login-email', key: email, rule: PER_EMAIL },
  ]
}
