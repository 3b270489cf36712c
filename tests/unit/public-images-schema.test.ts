import { describe, expect, it } from 'vitest'
import { PUBLIC_IMAGE_VARIANTS } from '../../shared/media/public-image'
import { publicImagesSchema } from '../../shared/schemas/public-images'

const valid = {
  display: { contentType: 'image/jpeg', size: 812_345 },
  thumb: { contentType: 'image/webp', size: 31_000 },
  thumb2x: { contentType: 'image/jpeg', size: 120_000 },
}

describe('publicImagesSchema (init\'s declaration of phone-made images)', () => {
  it('accepts a JPEG display image and WebP or JPEG thumbnails within their caps', () => {
    expect(publicImagesSchema.parse(valid)).toEqual(valid)
    const atCaps = {
      display: { contentType: 'image/jpeg', size: PUBLIC_IMAGE_VARIANTS.display.maxBytes },
      thumb: { contentType: 'image/jpeg', size: PUBLIC_IMAGE_VARIANTS.thumb.maxBytes },
      thumb2x: { contentType: 'image/webp', size: PUBLIC_IMAGE_VARIANTS.thumb2x.maxBytes },
    }
    expect(publicImagesSchema.safeParse(atCaps).success).toBe(true)
  })

  it('refuses a display image that is not JPEG, and any PNG', () => {
    expect(publicImagesSchema.safeParse({ ...valid, display: { contentType: 'image/webp', size: 1000 } }).success).toBe(false)
    expect(publicImagesSchema.safeParse({ ...valid, thumb: { contentType: 'image/png', size: 1000 } }).success).toBe(false)
  })

  it('refuses sizes over a cap, empty or fractional', () => {
    expect(publicImagesSchema.safeParse({ ...valid, thumb: { contentType: 'image/webp', size: PUBLIC_IMAGE_VARIANTS.thumb.maxBytes + 1 } }).success).toBe(false)
    expect(publicImagesSchema.safeParse({ ...valid, display: { contentType: 'image/jpeg', size: 0 } }).success).toBe(false)
    expect(publicImagesSchema.safeParse({ ...valid, thumb2x: { contentType: 'image/webp', size: 10.5 } }).success).toBe(false)
  })

  it('wants all three images and nothing else', () => {
    const { thumb2x: _, ...two } = valid
    expect(publicImagesSchema.safeParse(two).success).toBe(false)
    expect(publicImagesSchema.safeParse({ ...valid, original: { contentType: 'image/jpeg', size: 1 } }).success).toBe(false)
  })
})
