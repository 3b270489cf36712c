import type { H3Event } from 'h3'
import { localSigningKey, verifyGrant, type LocalGrant } from './local-driver'

/** The key in a /media/** URL, or 404 when it is not one the server could have made. */
export function mediaKeyOf(event: H3Event): string {
  useLocalMediaStore()
  const key = decodeURIComponent(getRouterParam(event, 'key', { decode: false }) ?? '')
  if (!isValidKey(key)) throw notFound()
  return key
}

/** Checks the URL's signature for `grant`; answers 403 like S3 does for a bad or expired one. */
export function assertGranted(event: H3Event, grant: Omit<LocalGrant, 'expires'>): LocalGrant {
  const query = getQuery(event)
  const expires = Number(query.exp)
  const signature = typeof query.sig === 'string' ? query.sig : ''
  const full = { ...grant, expires }
  const verdict = Number.isInteger(expires) && signature
    ? verifyGrant(full, signature, localSigningKey(useConfig().SESSION_SECRET))
    : 'invalid'
  if (verdict === 'expired') throw createError({ status: 403, statusMessage: 'URL expired', data: { code: 'URL_EXPIRED' } })
  if (verdict !== 'ok') throw createError({ status: 403, statusMessage: 'Invalid signature', data: { code: 'INVALID_SIGNATURE' } })
  return full
}
