import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'
import { grantFromQuery, isSignedQueryShape, localSigningKey, verifyGrant, type LocalGrant } from './grant'

function rawKeyOf(event: H3Event): string {
  try {
    return decodeURIComponent(getRouterParam(event, 'key', { decode: false }) ?? '')
  }
  catch {
    // A malformed escape (`/media/%ff`) names no key the server could have made.
    throw notFound()
  }
}

/** The key in a /media/** URL, or 404 when it is not one the server serves (staging never is). */
export function mediaKeyOf(event: H3Event): string {
  useLocalMediaStore()
  const key = rawKeyOf(event)
  if (!isValidKey(key)) throw notFound()
  return key
}

/** The key a media PUT writes to: a staging key (single PUT) or a served one (a multipart part). */
export function uploadKeyOf(event: H3Event): string {
  useLocalMediaStore()
  const key = rawKeyOf(event)
  if (!isValidKey(key) && !servedKeyOfStaged(key)) throw notFound()
  return key
}

/** The grant the URL's signature vouches for; answers 403 like S3 does for a bad or expired one. */
export function assertGranted(event: H3Event, method: LocalGrant['method'], key: string): LocalGrant {
  const { grant, signature } = grantFromQuery(method, key, getQuery(event))
  const search = event.path.includes('?') ? event.path.slice(event.path.indexOf('?')) : ''
  const verdict = Number.isInteger(grant.expires) && signature && isSignedQueryShape(search)
    ? verifyGrant(grant, signature, localSigningKey(useConfig().SESSION_SECRET))
    : 'invalid'
  if (verdict === 'expired') throw apiError(403, ErrorCode.URL_EXPIRED, 'URL expired')
  if (verdict !== 'ok') throw apiError(403, ErrorCode.INVALID_SIGNATURE, 'Invalid signature')
  return grant
}
