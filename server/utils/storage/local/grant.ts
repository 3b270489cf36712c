import { createHmac, timingSafeEqual } from 'node:crypto'

/** What a local media URL grants: one method on one key (one part of it), until `expires`. */
export interface LocalGrant {
  method: 'PUT' | 'GET'
  key: string
  expires: number
  length?: number
  contentType?: string
  uploadId?: string
  partNumber?: number
}

function grantPayload(grant: LocalGrant): string {
  return [grant.method, grant.key, grant.expires, grant.length ?? '', grant.contentType ?? '', grant.uploadId ?? '', grant.partNumber ?? ''].join('\n')
}

export function localSigningKey(secret: string): Buffer {
  // A key of its own, so a media signature can never be replayed as anything else.
  return createHmac('sha256', secret).update('local-media-urls').digest()
}

export function signGrant(grant: LocalGrant, key: Buffer): string {
  return createHmac('sha256', key).update(grantPayload(grant)).digest('base64url')
}

export function verifyGrant(grant: LocalGrant, signature: string, key: Buffer, now = Date.now()): 'ok' | 'expired' | 'invalid' {
  const expected = Buffer.from(signGrant(grant, key))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid'
  return grant.expires * 1000 < now ? 'expired' : 'ok'
}

/** A signed grant as a media URL's query: `exp`, `len`, `ct`, `upload`, `part`, then `sig`. */
export function grantQuery(grant: LocalGrant, key: Buffer): URLSearchParams {
  const params = new URLSearchParams({ exp: String(grant.expires) })
  if (grant.length !== undefined) params.set('len', String(grant.length))
  if (grant.contentType) params.set('ct', grant.contentType)
  if (grant.uploadId) params.set('upload', grant.uploadId)
  if (grant.partNumber) params.set('part', String(grant.partNumber))
  params.set('sig', signGrant(grant, key))
  return params
}

const SIGNED_QUERY_ORDER = ['exp', 'len', 'ct', 'upload', 'part', 'sig']

/**
 * Is a media URL's raw query (`?exp=…&sig=…`) in the shape `grantQuery` writes: only its names,
 * each once, in its order, `sig` last? The signature vouches for the values; this refuses a URL
 * that carries anything else beside them, as the signed URL of a bucket does.
 */
export function isSignedQueryShape(search: string): boolean {
  const names = [...new URLSearchParams(search).keys()]
  let from = 0
  for (const name of names) {
    const index = SIGNED_QUERY_ORDER.indexOf(name, from)
    if (index < 0) return false
    from = index + 1
  }
  return names.at(-1) === 'sig'
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
const number = (value: unknown) => (value === undefined ? undefined : Number(value))

/**
 * What a media URL's query claims for `method` on `key`, read back exactly as `grantQuery` wrote
 * it, and the signature that must vouch for it. Any field changed, added or dropped changes the
 * signed text, so the signature no longer verifies.
 */
export function grantFromQuery(method: LocalGrant['method'], key: string, query: Record<string, unknown>): { grant: LocalGrant, signature: string } {
  const grant: LocalGrant = {
    method,
    key,
    expires: Number(query.exp),
    length: number(query.len),
    contentType: text(query.ct),
    uploadId: text(query.upload),
    partNumber: number(query.part),
  }
  return { grant, signature: text(query.sig) ?? '' }
}
