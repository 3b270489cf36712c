import { describe, expect, it } from 'vitest'
import { derivedKey, newId, newOriginalKey, posterKeyOf, stagedKeyOf } from '../../../server/utils/storage/keys'
import { isPublicImage } from '../../../service-worker/addresses'

/**
 * What the service worker may keep, decided by the image's address alone: the keys are the
 * server's own (server/utils/storage/keys.ts), as the local driver (`/media/<key>`) and a bucket
 * (path style behind an endpoint, or its own host) serve them.
 */
const id = newId()
const photoOriginal = newOriginalKey(id, 'photo', 'image/heic')
const videoOriginal = newOriginalKey(id, 'video', 'video/mp4')
const publicKeys = [
  derivedKey(id, photoOriginal, 'display', 'jpg'),
  derivedKey(id, photoOriginal, 'thumb', 'webp'),
  derivedKey(id, photoOriginal, 'thumb2x', 'webp'),
  derivedKey(id, photoOriginal, 'display', 'webp'),
  posterKeyOf({ id, storageKey: videoOriginal }),
]
const bases = ['http://venue.local/media', 'http://127.0.0.1:4569/event-media', 'https://event-media.s3.sa-east-1.amazonaws.com', 'https://cdn.example.com/fotos']

describe('the service worker keeps public images only, by their address', () => {
  it('keeps display images, thumbnails and posters wherever they are served from', () => {
    for (const base of bases) {
      for (const key of publicKeys) expect(isPublicImage(new URL(`${base}/${key}`)), `${base}/${key}`).toBe(true)
    }
  })

  it('never keeps an original, a video, or anything staged', () => {
    expect(photoOriginal.startsWith('orig/')).toBe(true)
    for (const base of bases) {
      for (const key of [photoOriginal, videoOriginal, stagedKeyOf(publicKeys[0]!), `orig/${publicKeys[0]!.slice('media/'.length)}`]) {
        expect(isPublicImage(new URL(`${base}/${key}`)), `${base}/${key}`).toBe(false)
      }
    }
  })

  it('never keeps a signed URL, even of a public key', () => {
    const key = publicKeys[0]!
    const signedS3 = `https://event-media.s3.sa-east-1.amazonaws.com/${photoOriginal}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=a%2F20261212%2Fsa-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261212T230000Z&X-Amz-Expires=600&X-Amz-Signature=abc&X-Amz-SignedHeaders=host&x-id=GetObject`
    const signedLocal = `http://venue.local/media/${photoOriginal}?exp=1765580400&sig=abc`
    for (const url of [signedS3, signedLocal, `http://venue.local/media/${key}?exp=1765580400&sig=abc`, `http://venue.local/media/${key}?X-Amz-Signature=abc`]) {
      expect(isPublicImage(new URL(url)), url).toBe(false)
    }
  })

  it('keeps nothing else an image may be: the QR code, icons, the app', () => {
    for (const url of ['http://venue.local/api/qrcode?format=svg', 'http://venue.local/icons/icon-192.png', 'http://venue.local/_nuxt/logo.svg', 'http://venue.local/media/media/a-display.jpg', 'data:image/png;base64,AAAA']) {
      expect(isPublicImage(new URL(url)), url).toBe(false)
    }
  })
})
