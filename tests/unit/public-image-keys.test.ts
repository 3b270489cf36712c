import { describe, expect, it } from 'vitest'
import { adminPublicImageOf } from '../../server/utils/admin/public-image'
import { isValidKey, ownedKeys, photoImageKeysOf, publicImageKeyOf, stagedKeyOf, uploadIdOfKey } from '../../server/utils/storage/keys'

const photo = { id: 'AAAAAAAAAAAAAAAAAAAA', kind: 'photo' as const, storageKey: 'orig/AAAAAAAAAAAAAAAAAAAA-secret.jpg', thumbKey: null, thumb2xKey: null, displayKey: null, posterKey: null }

describe('public image keys', () => {
  it('are fixed per original, variant and format, valid, and name their upload', () => {
    const webp = publicImageKeyOf(photo, 'thumb2x', 'image/webp')
    expect(webp).toBe(publicImageKeyOf(photo, 'thumb2x', 'image/webp'))
    expect(webp).toMatch(/^media\/AAAAAAAAAAAAAAAAAAAA-[\w-]{16}-thumb2x\.webp$/)
    expect(publicImageKeyOf(photo, 'thumb2x', 'image/jpeg')).toMatch(/-thumb2x\.jpg$/)
    expect(publicImageKeyOf({ ...photo, storageKey: 'orig/AAAAAAAAAAAAAAAAAAAA-other.jpg' }, 'thumb2x', 'image/webp')).not.toBe(webp)
    for (const key of Object.values(photoImageKeysOf(photo))) {
      expect(isValidKey(key)).toBe(true)
      expect(uploadIdOfKey(stagedKeyOf(key))).toBe(photo.id)
    }
    expect(photoImageKeysOf(photo)).toEqual({
      display: publicImageKeyOf(photo, 'display', 'image/jpeg'),
      thumb: publicImageKeyOf(photo, 'thumb', 'image/webp'),
      thumb2x: publicImageKeyOf(photo, 'thumb2x', 'image/webp'),
    })
  })

  it('are all owned by the photo, staged and served, in both formats, so a delete leaves none behind', () => {
    const owned = new Set(ownedKeys(photo))
    for (const variant of ['display', 'thumb', 'thumb2x'] as const) {
      for (const type of ['image/jpeg', 'image/webp']) {
        expect(owned.has(publicImageKeyOf(photo, variant, type))).toBe(true)
        expect(owned.has(stagedKeyOf(publicImageKeyOf(photo, variant, type)))).toBe(true)
      }
    }
    expect(ownedKeys({ ...photo, thumb2xKey: 'media/x-recorded.webp' })).toContain('media/x-recorded.webp')
  })
})

describe('what the admin is told of a photo\'s public images', () => {
  const row = { kind: 'photo' as const, displayKey: null, publicImageSource: null, phoneImagesRefusal: null }
  it('says who made them, or why there are none', () => {
    expect(adminPublicImageOf({ ...row, kind: 'video' })).toBeNull()
    expect(adminPublicImageOf(row)).toEqual({ source: null, missing: 'waiting', phoneImagesRefusal: null })
    expect(adminPublicImageOf({ ...row, publicImageSource: 'undecodable', phoneImagesRefusal: 'original-unreadable' }))
      .toEqual({ source: null, missing: 'undecodable', phoneImagesRefusal: 'original-unreadable' })
    expect(adminPublicImageOf({ ...row, displayKey: 'media/d.jpg', publicImageSource: 'phone' })).toEqual({ source: 'phone', missing: null, phoneImagesRefusal: null })
    expect(adminPublicImageOf({ ...row, displayKey: 'media/d.jpg', publicImageSource: 'server', phoneImagesRefusal: 'metadata' }))
      .toEqual({ source: 'server', missing: null, phoneImagesRefusal: 'metadata' })
    // Derived before the column existed (and before migration 0007 filled it).
    expect(adminPublicImageOf({ ...row, displayKey: 'media/d.jpg' })).toEqual({ source: 'server', missing: null, phoneImagesRefusal: null })
  })
})
