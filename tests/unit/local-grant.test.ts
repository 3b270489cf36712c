import { describe, expect, it } from 'vitest'
import { localSigningKey, signGrant, verifyGrant } from '../../server/utils/storage/local/grant'

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
