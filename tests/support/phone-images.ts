import assert from 'node:assert/strict'
import sharp from 'sharp'
import { PUBLIC_IMAGE_VARIANT_NAMES, PUBLIC_IMAGE_VARIANTS, type PublicImageVariant } from '../../shared/media/public-image'
import { api } from './http'
import { putBytes } from './uploads'

export type PhoneImages = Record<PublicImageVariant, { bytes: Buffer, contentType: string }>

/**
 * A photo's public images as the upload page makes them, made here with sharp: the
 * orientation applied, each variant's longest side, no metadata (sharp keeps none unless told).
 * The page's canvas output passes the same check (tests/browser/public-images.test.ts).
 */
export async function makePhoneImages(original: Buffer, thumbType: 'image/webp' | 'image/jpeg' = 'image/webp'): Promise<PhoneImages> {
  const pixels = await sharp(original).rotate().raw().toBuffer({ resolveWithObject: true })
  const input = { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } }
  const variant = async (name: PublicImageVariant, type: string) => {
    const longSide = PUBLIC_IMAGE_VARIANTS[name].longSide
    const resized = sharp(pixels.data, input).resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
    const bytes = await (type === 'image/webp' ? resized.webp({ quality: 75 }) : resized.jpeg({ quality: 82 })).toBuffer()
    return { bytes, contentType: type }
  }
  const [display, thumb, thumb2x] = await Promise.all([variant('display', 'image/jpeg'), variant('thumb', thumbType), variant('thumb2x', thumbType)])
  return { display: display!, thumb: thumb!, thumb2x: thumb2x! }
}

/** POST /api/uploads/:id/public-images for `images`, then PUT each (all, or those in `only`; with `extraHeaders` besides the signed ones). */
export async function sendPhoneImages(base: string, id: string, images: PhoneImages, only: PublicImageVariant[] = PUBLIC_IMAGE_VARIANT_NAMES, extraHeaders: Record<string, string> = {}) {
  const declaration = Object.fromEntries(PUBLIC_IMAGE_VARIANT_NAMES.map(name => [name, { contentType: images[name].contentType, size: images[name].bytes.length }]))
  const signed = await api(base, `/api/uploads/${id}/public-images`, { method: 'POST', json: declaration })
  assert.equal(signed.status, 200, `public-images answered ${signed.status}: ${JSON.stringify(signed.body)}`)
  for (const name of only) {
    const response = await putBytes(signed.body.upload[name].url, images[name].bytes, { ...signed.body.upload[name].headers, ...extraHeaders })
    assert.equal(response.status, 200, `PUT of ${name} answered ${response.status}`)
  }
  return signed.body
}
