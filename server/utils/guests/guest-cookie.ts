import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'

/**
 * A guest device, as its browser names it: a random id and its HMAC under SESSION_SECRET
 * (`<id>.<mac>`), set by the first upload init. It counts the disposable-camera limit and lists
 * "my photos": a game and a convenience, not an identity (clearing cookies starts again).
 */
export const GUEST_COOKIE = 'em_guest'
/** From the first photo at the party to the last look at "my photos" weeks later. */
const GUEST_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60

function macOf(id: string): string {
  return createHmac('sha256', useConfig().SESSION_SECRET).update(`${GUEST_COOKIE}:${id}`).digest('base64url')
}

/** The guest id the request's cookie proves, or null (none, or not signed by this server). */
export function guestIdOf(event: H3Event): string | null {
  const value = getCookie(event, GUEST_COOKIE)
  const [id, mac] = value?.split('.') ?? []
  if (!id || !mac || !/^[\w-]{22}$/.test(id)) return null
  const given = Buffer.from(mac)
  const expected = Buffer.from(macOf(id))
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null
}

/** The request's guest id, or a new one whose cookie goes out with the answer. */
export function ensureGuestId(event: H3Event): string {
  const known = guestIdOf(event)
  if (known) return known
  const id = randomBytes(16).toString('base64url')
  setCookie(event, GUEST_COOKIE, `${id}.${macOf(id)}`, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: GUEST_COOKIE_MAX_AGE_SECONDS,
    secure: isHttpsRequest(event),
  })
  return id
}
