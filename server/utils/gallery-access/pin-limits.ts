import { randomUUID } from 'node:crypto'
import type { H3Event } from 'h3'
import { GALLERY_PIN_BUDGET, type PinGuessUse } from '#shared/gallery-pin'
import { guestIdOf } from '../guests/guest-cookie'

/**
 * Wrong PINs per client, as wrong logins: 10 at once, then one per 30 s; an IPv6 client is its
 * /64. A guest mistyping twice never notices.
 */
const PER_CLIENT: BucketRule = { capacity: 10, refillPerSecond: 1 / 30 }
/**
 * Wrong PINs per guest device (the `em_guest` cookie), as the admin's device cookie: 5, then one
 * a minute, and while it is empty the device is refused whatever it types.
 */
const PER_DEVICE: BucketRule = { capacity: 5, refillPerSecond: 1 / 60 }

/**
 * Wrong PINs for the whole event, from every address together, in any sliding hour. A 4-digit
 * PIN has 10,000 values: a crowd needs 5,000 guesses on average, 25 hours at this pace, however
 * many addresses it has. A window, not a bucket: an hour of guesses never returns at once.
 */
const PER_EVENT: LimitWindow = {
  name: 'gallery-pin-event',
  key: 'event',
  rule: { limit: GALLERY_PIN_BUDGET.perHour, windowMs: 60 * 60 * 1000 },
}

/** A guess taken from the limits, to give back when the PIN was right. */
export interface PinGuess {
  buckets: LimitBucket[]
  entry: string
}

/**
 * Which per-client bucket a guess comes out of. A browser holding a guest device cookie (set by
 * its first upload, or by a right PIN: a guest who typed it before, or anyone behind the venue's
 * NAT who sent a photo) is counted by that cookie, so one person typing wrong PINs on the shared
 * address locks out no one else; everyone else by address. Anyone can get a guest cookie, so
 * neither is what keeps a crowd out: the event's budget is, and every guess takes from it.
 */
function clientBucket(event: H3Event): LimitBucket {
  const guestId = guestIdOf(event)
  if (guestId) return { name: 'gallery-pin-device', key: guestId, rule: PER_DEVICE }
  return { name: 'gallery-pin-client', key: clientBlockKey(event), rule: PER_CLIENT }
}

/**
 * Takes one guess from the client's bucket and a place in the event's hour, before the PIN is
 * compared (a burst gets no more guesses than the limits), or 429 RATE_LIMITED from either. The
 * refusal depends on nothing the request typed, so while the budget is spent a right PIN is
 * refused exactly as a wrong one is, and no answer tells them apart.
 */
export async function takePinGuess(event: H3Event): Promise<PinGuess> {
  const buckets = [clientBucket(event)]
  await takeTokens(event, buckets)
  const entry = randomUUID()
  try {
    await enterWindow(event, PER_EVENT, entry)
  }
  catch (error) {
    // Not checked, so not counted against the client either.
    await returnTokens(buckets)
    throw error
  }
  return { buckets, entry }
}

/** A right PIN is no guess: it leaves both limits as they were. */
export async function returnPinGuess(guess: PinGuess): Promise<void> {
  await Promise.all([returnTokens(guess.buckets), leaveWindow(PER_EVENT, guess.entry)])
}

/** The event's wrong PINs in the last hour, for the admin's Event tab. */
export async function pinGuessesLastHour(): Promise<PinGuessUse> {
  const { count, fullUntil } = await windowUse(PER_EVENT)
  return {
    wrongLastHour: count,
    perHour: PER_EVENT.rule.limit,
    spentUntil: fullUntil === null ? null : new Date(fullUntil).toISOString(),
  }
}
