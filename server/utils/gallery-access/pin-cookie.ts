import { createHmac, timingSafeEqual } from 'node:crypto'
import type { H3Event } from 'h3'

/**
 * The browser's proof that it was given the gallery's PIN: an HMAC of the PIN under
 * SESSION_SECRET. It names no one and carries no expiry of its own: it opens the gallery until the
 * PIN changes (a new PIN makes every earlier cookie wrong), and without the secret it tells
 * nothing about the PIN.
 */
export const GALLERY_COOKIE = 'em_gallery'
/** As long as the guest device cookie: a guest opens the gallery once, for the wedding and after. */
const GALLERY_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60

function proofOf(pin: string): Buffer {
  return createHmac('sha256', useConfig().SESSION_SECRET).update(`${GALLERY_COOKIE}:${pin}`).digest()
}

/** Constant-time, so timing tells nothing about the stored PIN. */
export function pinMatches(given: string, pin: string): boolean {
  const a = proofOf(given)
  const b = proofOf(pin)
  return timingSafeEqual(a, b)
}

export function setGalleryCookie(event: H3Event, pin: string): void {
  setCookie(event, GALLERY_COOKIE, proofOf(pin).toString('base64url'), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: GALLERY_COOKIE_MAX_AGE_SECONDS,
    secure: isHttpsRequest(event),
  })
}

/** Whether the request's cookie proves the current PIN. */
export function hasGalleryCookie(event: H3Event, pin: string): boolean {
  const value = getCookie(event, GALLERY_COOKIE)
  if (!value) return false
  const given = Buffer.from(value, 'base64url')
  const expected = proofOf(pin)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
