import { isJpeg, readJpegStructure, stripJpegIccProfile } from './jpeg'
import { isWebp, readWebpStructure, stripWebpIccProfile } from './webp'

/**
 * The public images of a photo, and the check a phone-made one must pass before anyone but its
 * sender sees it. The check reads the bytes' structure only (magic, header, every segment or
 * chunk), never decodes pixels: cheap enough to run at confirm for every photo of the peak.
 */

/**
 * The variants of a photo the public sees. The byte caps leave room for the worst case: a square
 * of pure noise, which no encoder can compress, weighs 2.9 MB as a 2048 × 2048 JPEG at quality
 * 0.85 from Chromium's canvas, 0.64 MB at 960 and 0.16 MB at 480 (bench/RESULTS.md, "Phone-made
 * public images"); a detailed 12 MP photo's display image is 0.5–1.4 MB.
 * A refused image costs only a fallback to the server's derivation: the caps bound what a signed
 * PUT may store, they are not a quality target.
 */
export const PUBLIC_IMAGE_VARIANTS = {
  /** What the fullscreen viewer and the projector show. */
  display: { longSide: 2048, maxBytes: 4 * 1024 * 1024 },
  /** Gallery grid tile at 1×–2× density. */
  thumb: { longSide: 480, maxBytes: 256 * 1024 },
  /** The same tile on 3× phone screens (what makes today's thumbnails look soft). */
  thumb2x: { longSide: 960, maxBytes: 1024 * 1024 },
} as const satisfies Record<string, { longSide: number, maxBytes: number }>

export type PublicImageVariant = keyof typeof PUBLIC_IMAGE_VARIANTS
export const PUBLIC_IMAGE_VARIANT_NAMES = Object.keys(PUBLIC_IMAGE_VARIANTS) as PublicImageVariant[]

export const PUBLIC_IMAGE_FORMATS = { jpeg: 'image/jpeg', webp: 'image/webp' } as const
export type PublicImageFormat = keyof typeof PUBLIC_IMAGE_FORMATS

export type PublicImageRefusal = 'wrong-format' | 'too-large' | 'dimensions' | 'aspect' | 'metadata' | 'truncated'

export type PublicImageCheck
  = | { ok: true, format: PublicImageFormat, width: number, height: number }
    | { ok: false, reason: PublicImageRefusal }

export interface Size { width: number, height: number }

/** The orientation of a photo's pixels as its EXIF says (1–8): 5–8 turn it a quarter. */
export function orientedSize(meta: { width?: number, height?: number, orientation?: number }): Size | null {
  const { width, height } = meta
  if (!width || !height || width < 1 || height < 1) return null
  return (meta.orientation ?? 1) >= 5 && (meta.orientation ?? 1) <= 8 ? { width: height, height: width } : { width, height }
}

/**
 * The size of a variant of an original (already oriented): its longest side brought down to
 * `longSide`, never enlarged, the other side rounded and at least 1. The phone draws exactly this
 * size; the check accepts it within rounding.
 */
export function publicImageSize(original: Size, longSide: number): Size {
  const scale = Math.min(1, longSide / Math.max(original.width, original.height))
  return {
    width: Math.max(1, Math.round(original.width * scale)),
    height: Math.max(1, Math.round(original.height * scale)),
  }
}

/** How far the longest side may differ from the expected one: browsers round their resizes their own way. */
const LONG_SIDE_SLACK_PX = 2
/** A public image keeps the original's shape: its aspect ratio within 2 % once the orientation is applied. */
const ASPECT_TOLERANCE = 0.02

/**
 * Is the aspect ratio of `image` the original's? Within 2 %, or, for a very narrow panorama whose
 * short side is only a few pixels, within one pixel of the exact short side (rounding alone
 * moves a 10-pixel side by 5 %).
 */
export function sameAspect(image: Size, original: Size): boolean {
  const ratio = image.width / image.height
  const expected = original.width / original.height
  if (Math.abs(ratio - expected) / expected <= ASPECT_TOLERANCE) return true
  const landscape = image.width >= image.height
  if (landscape !== (original.width >= original.height) && image.width !== image.height) return false
  const long = Math.max(image.width, image.height)
  const exactShort = long * Math.min(original.width, original.height) / Math.max(original.width, original.height)
  return Math.abs(Math.min(image.width, image.height) - exactShort) <= 1
}

/** Too short to tell: nothing at all, or the first bytes of a JPEG or RIFF header and no more. */
function isCutShort(bytes: Uint8Array): boolean {
  const starts = (magic: number[]) => bytes.every((byte, index) => index >= magic.length || byte === magic[index])
  return bytes.length === 0 || (bytes.length < 3 && starts([0xFF, 0xD8, 0xFF])) || (bytes.length < 12 && starts([0x52, 0x49, 0x46, 0x46]))
}

export interface PublicImageExpectation {
  variant: PublicImageVariant
  /** The original's size with its EXIF orientation applied (`orientedSize`). */
  original: Size
  /** The type the upload was signed for: the bytes must be that format. */
  contentType?: string
}

/**
 * Accepts `bytes` as the public `variant` of a photo only if it is a JPEG or WebP within the
 * variant's byte cap, of the size `publicImageSize` gives (longest side within two pixels), of the
 * original's aspect ratio, and carries nothing but pixels (see readJpegStructure, readWebpStructure).
 */
export function checkPublicImage(bytes: Uint8Array, expected: PublicImageExpectation): PublicImageCheck {
  const rules = PUBLIC_IMAGE_VARIANTS[expected.variant]
  if (bytes.length > rules.maxBytes) return { ok: false, reason: 'too-large' }
  const format: PublicImageFormat | null = isJpeg(bytes) ? 'jpeg' : isWebp(bytes) ? 'webp' : null
  if (!format) return { ok: false, reason: isCutShort(bytes) ? 'truncated' : 'wrong-format' }
  if (expected.contentType !== undefined && expected.contentType !== PUBLIC_IMAGE_FORMATS[format]) return { ok: false, reason: 'wrong-format' }
  const structure = format === 'jpeg' ? readJpegStructure(bytes) : readWebpStructure(bytes)
  if (!structure.ok) return structure
  const { width, height } = structure
  const longSide = Math.max(width, height)
  const expectedLongSide = Math.max(...Object.values(publicImageSize(expected.original, rules.longSide)))
  if (width < 1 || height < 1 || longSide > rules.longSide || Math.abs(longSide - expectedLongSide) > LONG_SIDE_SLACK_PX) {
    return { ok: false, reason: 'dimensions' }
  }
  if (!sameAspect({ width, height }, expected.original)) return { ok: false, reason: 'aspect' }
  return { ok: true, format, width, height }
}

/** The image without the sRGB ICC profile a browser's canvas adds (see stripJpegIccProfile). */
export function stripIccProfile(bytes: Uint8Array): Uint8Array {
  if (isJpeg(bytes)) return stripJpegIccProfile(bytes)
  if (isWebp(bytes)) return stripWebpIccProfile(bytes)
  return bytes
}

/**
 * Who made a photo's public images: the guest's phone (checked at confirm), the server's
 * derivation, or nobody could (`undecodable`: an original the server cannot decode, a HEIC outside
 * Safari, and no acceptable images from the phone). The photo stays out of public view in the last case.
 */
export const PUBLIC_IMAGE_SOURCES = ['phone', 'server', 'undecodable'] as const
export type PublicImageSource = typeof PUBLIC_IMAGE_SOURCES[number]

/** Why confirm did not take the phone's images: the check's reasons, or an image never sent. */
export type PhoneImagesRefusal = PublicImageRefusal | 'missing' | 'original-unreadable'
