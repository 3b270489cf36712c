import type { H3Event } from 'h3'

// A named type: mlly's export scanner (Nitro auto-imports) misses functions whose signature holds
// a string-literal union.
type GuestbookStep = 'post' | 'undo'

/**
 * A written message costs what an init does (a row, a moderation item), so it is limited per
 * client by the same rule, in buckets of its own: a guest sending photos is not slowed by the
 * message they write meanwhile. The token is taken before the work, so a parallel burst gets
 * exactly the limit.
 */
export async function limitGuestbook(event: H3Event, step: GuestbookStep) {
  await consumeToken(event, `guestbook-${step}`, clientKey(event), uploadRule())
}
