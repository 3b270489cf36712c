import { describe, expect, it } from 'vitest'
import { decodeHeartsCursor, decodeUploadCursor, encodeHeartsCursor, encodeUploadCursor } from '../../shared/cursor'

describe('the admin list\'s hearts cursor', () => {
  const position = { hearts: 12, createdAt: new Date('2026-11-22T18:04:05.123Z'), id: 'Ab3_-xYz' }

  it('reads back what it wrote', () => {
    expect(decodeHeartsCursor(encodeHeartsCursor(position))).toEqual(position)
    expect(decodeHeartsCursor(encodeHeartsCursor({ ...position, hearts: 0 }))).toEqual({ ...position, hearts: 0 })
  })

  it('refuses anything else, a newest-first cursor included, and the reverse', () => {
    expect(decodeHeartsCursor(encodeUploadCursor(position))).toBeNull()
    expect(decodeUploadCursor(encodeHeartsCursor(position))).toBeNull()
    for (const value of ['', 'nope', btoa('h-1.5.a'), btoa('h1.5.a/b'), `${encodeHeartsCursor(position)}=`]) {
      expect(decodeHeartsCursor(value), value).toBeNull()
    }
  })
})
