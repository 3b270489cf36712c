import { describe, expect, it } from 'vitest'
import { decodeUploadCursor, encodeUploadCursor } from '../../shared/cursor'

describe('upload cursor', () => {
  it('round-trips a position exactly', () => {
    const position = { createdAt: new Date('2026-11-22T18:04:05.123Z'), id: 'aB3_-x' }
    const cursor = encodeUploadCursor(position)
    expect(cursor).toMatch(/^[\w-]+$/)
    expect(decodeUploadCursor(cursor)).toEqual(position)
  })

  it('round-trips the epoch and the longest id', () => {
    const position = { createdAt: new Date(0), id: 'z'.repeat(64) }
    expect(decodeUploadCursor(encodeUploadCursor(position))).toEqual(position)
  })

  it('refuses anything it did not make', () => {
    const valid = encodeUploadCursor({ createdAt: new Date(1000), id: 'abc' })
    const refused = [
      '', 'abc', '!!!!', `${valid}=`, `${valid}A`, valid.slice(1),
      btoa('1000'), btoa('x.abc'), btoa('1000.'), btoa('1000.a/b'), btoa('1000.a.b'),
      btoa('-5.abc'), btoa(`1000.${'a'.repeat(65)}`), btoa('0001000.abc'),
      // base64 with padding or the standard alphabet is not our spelling
      btoa('1000.abc?'),
    ]
    for (const value of refused) expect(decodeUploadCursor(value), value).toBeNull()
  })
})
