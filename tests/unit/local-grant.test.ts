import { describe, expect, it } from 'vitest'
import { grantQuery, isSignedQueryShape, localSigningKey, signGrant, verifyGrant } from '../../server/utils/storage/local/grant'

const key = localSigningKey('a-secret-of-at-least-thirty-two-chars!!')
const grant = { method: 'PUT' as const, key: 'orig/abc-def.jpg', expires: Math.floor(Date.now() / 1000) + 60, length: 1000, contentType: 'image/jpeg' }

describe('local media URL signatures', () => {
  it('accept the signed grant and nothing else', () => {
    const signature = signGrant(grant, key)
    expect(verifyGrant(grant, signature, key)).toBe('ok')
    expect(verifyGrant({ ...grant, length: 1001 }, signature, key)).toBe('invalid')
    expect(verifyGrant({ ...grant, contentType: 'text/html' }, signature, key)).toBe('invalid')
    expect(verifyGrant({ ...grant, key: 'orig/other.jpg' }, signature, key)).toBe('invalid')
    expect(verifyGrant({ ...grant, method: 'GET' }, signature, key)).toBe('invalid')
    expect(verifyGrant(grant, signature, localSigningKey('another-secret-of-at-least-thirty-two'))).toBe('invalid')
    expect(verifyGrant(grant, `${signature}x`, key)).toBe('invalid')
  })

  it('reports an expired grant as expired', () => {
    const old = { ...grant, expires: Math.floor(Date.now() / 1000) - 1 }
    expect(verifyGrant(old, signGrant(old, key), key)).toBe('expired')
  })
})

describe('the shape of a signed query', () => {
  it('accepts exactly what grantQuery writes', () => {
    expect(isSignedQueryShape(`?${grantQuery(grant, key)}`)).toBe(true)
    expect(isSignedQueryShape(`?${grantQuery({ ...grant, uploadId: 'u1', partNumber: 2 }, key)}`)).toBe(true)
    expect(isSignedQueryShape('?exp=1&sig=x')).toBe(true)
  })

  it('refuses a parameter added, repeated or moved, and a query without sig last', () => {
    for (const search of ['?exp=1&sig=x&x=1', '?x=1&exp=1&sig=x', '?sig=x&exp=1', '?exp=1&exp=1&sig=x', '?exp=1&sig=x&sig=x', '?ct=a&len=1&sig=x', '?exp=1', '', '?']) {
      expect(isSignedQueryShape(search), search).toBe(false)
    }
  })
})
