import type { H3Event } from 'h3'
import { signToken, verifyToken, type TokenAudience } from './signed-token'

/**
 * OWASP's "device cookies" (Slow Down Online Guessing Attacks with Device Cookies): a successful
 * login leaves a signed cookie that names the admin's email and a random nonce. A later login for
 * that email that presents it comes from a device that has proved the password before, so it is
 * limited per device cookie instead of per email and per address: flooding an admin's email from
 * anywhere cannot lock that admin out. It proves the device, not a session, so logout leaves it.
 */
export const DEVICE_COOKIE = 'em_device'
/**
 * 180 days: from the months of preparation through the wedding to the weeks of moderation and
 * export after it, an admin's phone or laptop stays known; a device not used for half a year (a
 * lost one included) falls back to the per-email limit. Each successful login renews it.
 */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60
/** Only the login reads it: the browser sends it nowhere else. */
const DEVICE_COOKIE_PATH = '/api/admin/login'
// Its own audience: a session token is not a device cookie, nor the other way round.
const AUDIENCE: TokenAudience = 'event-media-device'

/** A fresh device cookie for `email` (normalised), replacing any the device held. */
export async function setDeviceCookie(event: H3Event, email: string): Promise<void> {
  const token = await signToken(AUDIENCE, email, DEVICE_COOKIE_MAX_AGE_SECONDS)
  setCookie(event, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    secure: isHttpsRequest(event),
  })
}

/** The nonce of the request's device cookie when it is valid and names `email` (normalised), else null. */
export async function knownDeviceOf(event: H3Event, email: string): Promise<string | null> {
  const token = getCookie(event, DEVICE_COOKIE)
  if (!token) return null
  try {
    return (await verifyToken(token, AUDIENCE, email)).jti
  }
  catch {
    return null
  }
}
