import { describe, expect, it } from 'vitest'
import { kindOfContentType, PART_SIZE_BYTES, partLayout, partSize, SINGLE_PUT_MAX_BYTES } from '../../shared/limits'

describe('part layout', () => {
  it('cuts a file into 10 MiB parts with the rest last', () => {
    expect(partLayout(SINGLE_PUT_MAX_BYTES + 1)).toEqual({ partCount: 6, lastPartSize: 1 })
    expect(partLayout(60 * 1024 * 1024)).toEqual({ partCount: 6, lastPartSize: PART_SIZE_BYTES })
    expect(partSize(55 * 1024 * 1024, 6)).toBe(5 * 1024 * 1024)
    expect(partSize(55 * 1024 * 1024, 1)).toBe(PART_SIZE_BYTES)
  })

  it('derives the kind from the content type', () => {
    expect(kindOfContentType('video/quicktime')).toBe('video')
    expect(kindOfContentType('image/heic')).toBe('photo')
  })
})
