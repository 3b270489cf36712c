import { readJpegHeader } from '#shared/media/jpeg'
import {
  checkPublicImage, orientedSize, PUBLIC_IMAGE_FORMATS, PUBLIC_IMAGE_VARIANTS, publicImageSize, sameAspect, stripIccProfile,
  type PublicImageVariant, type Size,
} from '#shared/media/public-image'

/**
 * Draws a photo's public images (shared by the worker and the main-thread fallback): decode once
 * with the EXIF orientation applied and, where the JPEG header says how big the photo is, scaled
 * down while decoding (see decodeJpegScaled), so a 48-megapixel photo never sits in memory at full
 * size. Thumbnails are drawn from the display image, never from the original.
 */

export interface PublicImages {
  /** Longest side 2048 (or the photo's own, if smaller), JPEG. */
  display: Blob
  /** Longest side 480, for the gallery grid. */
  thumb: Blob
  /** Longest side 960, the grid on 3× screens. */
  thumb2x: Blob
  /** The original's size with its orientation applied (what the gallery reports as width/height). */
  width: number
  height: number
}

/** A 2D surface of one size, and how it becomes a file: OffscreenCanvas in a worker, <canvas> on the main thread. */
export interface Surface {
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D
  source: CanvasImageSource
  encode: (type: string, quality: number) => Promise<Blob | null>
}
export type SurfaceFactory = (size: Size) => Surface | null

/** The display image's JPEG quality: about the look of the server's derivation (mozjpeg at 82). */
const DISPLAY_QUALITY = 0.85
/** A second, smaller try when a very detailed photo would pass the display cap. */
const DISPLAY_RETRY_QUALITY = 0.7
/**
 * Thumbnails as WebP, 40–50 % lighter than JPEG at the same quality setting (bench/RESULTS.md),
 * and the grid is what hundreds of phones load on the venue's Wi-Fi; JPEG where the canvas cannot
 * write WebP (Safari hands back a PNG instead).
 */
const THUMB_TYPES = ['image/webp', 'image/jpeg'] as const
const THUMB_QUALITY = 0.8
/** The APPn segments come first in a JPEG: its size and orientation are within this many bytes. */
const HEADER_BYTES = 256 * 1024

export const offscreenSurface: SurfaceFactory = ({ width, height }) => {
  const canvas = new OffscreenCanvas(width, height)
  const context = canvas.getContext('2d', { alpha: false })
  if (!context) return null
  return { context, source: canvas, encode: (type, quality) => canvas.convertToBlob({ type, quality }).catch(() => null) }
}

export const elementSurface: SurfaceFactory = ({ width, height }) => {
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d', { alpha: false })
  if (!context) return null
  return { context, source: canvas, encode: (type, quality) => new Promise(resolve => canvas.toBlob(resolve, type, quality)) }
}

/** The original's oriented size from a JPEG's first bytes; null for other formats (they are decoded to learn it). */
async function sizeFromHeader(file: Blob): Promise<Size | null> {
  const header = readJpegHeader(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()))
  return header && orientedSize(header)
}

function draw(source: CanvasImageSource, size: Size, surfaces: SurfaceFactory): Surface | null {
  const surface = surfaces(size)
  if (!surface) return null
  surface.context.imageSmoothingEnabled = true
  surface.context.imageSmoothingQuality = 'high'
  surface.context.drawImage(source, 0, 0, size.width, size.height)
  return surface
}

/**
 * Encodes a surface as the first of `types` the canvas really writes, without the colour profile
 * the canvas adds, and keeps it only if the server's own check would accept it.
 */
async function encode(surface: Surface, variant: PublicImageVariant, original: Size, types: readonly string[], quality: number): Promise<Blob | null> {
  for (const type of types) {
    const blob = await surface.encode(type, quality)
    if (!blob || blob.type !== type) continue
    const bytes = stripIccProfile(new Uint8Array(await blob.arrayBuffer()))
    if (checkPublicImage(bytes, { variant, original, contentType: type }).ok) return new Blob([bytes as Uint8Array<ArrayBuffer>], { type })
  }
  return null
}

export type DrawFailure = 'undecodable' | 'unsupported' | 'refused'

/** A decoded photo, its orientation applied when drawn: whichever the browser could make. */
export type Picture = ImageBitmap | HTMLImageElement | VideoFrame

/**
 * Decodes `file` for a display image of `display` size. `original` (oriented) and `display` are
 * known when the file is a JPEG whose header was read; null otherwise.
 */
export type PictureDecoder = (file: Blob, original: Size | null, display: Size | null) => Promise<Picture>

function sizeOf(picture: Picture): Size {
  if ('naturalWidth' in picture) return { width: picture.naturalWidth, height: picture.naturalHeight }
  if ('displayWidth' in picture) return { width: picture.displayWidth, height: picture.displayHeight }
  return { width: picture.width, height: picture.height }
}

function release(picture: Picture): void {
  if ('close' in picture) picture.close()
}

/**
 * The public images of `file`; 'undecodable' when this browser cannot decode it (HEIC outside
 * Safari), 'unsupported' when it has no 2D canvas here (an OffscreenCanvas without a 2D context,
 * Safari before 16.4), 'refused' when what it drew would not pass the server's check (then the
 * server derives).
 */
export async function drawPublicImages(file: Blob, surfaces: SurfaceFactory, decode: PictureDecoder = decodePicture): Promise<PublicImages | DrawFailure> {
  const known = await sizeFromHeader(file)
  let picture: Picture
  try {
    picture = await decode(file, known, known && publicImageSize(known, PUBLIC_IMAGE_VARIANTS.display.longSide))
  }
  catch {
    return 'undecodable'
  }
  const pictureSize = sizeOf(picture)
  // Without a JPEG header the decoded picture is the original itself, oriented.
  const original = known ?? pictureSize
  const displaySize = publicImageSize(original, PUBLIC_IMAGE_VARIANTS.display.longSide)
  try {
    if (!pictureSize.width || !pictureSize.height) return 'undecodable'
    // Whatever size the browser decoded to, the orientation must have been applied: else the
    // drawing would stretch the picture, and no header check could tell.
    if (!sameAspect(pictureSize, original)) return 'refused'
    const display = draw(picture, displaySize, surfaces)
    release(picture)
    if (!display) return 'unsupported'
    const displayBlob = await encode(display, 'display', original, [PUBLIC_IMAGE_FORMATS.jpeg], DISPLAY_QUALITY)
      ?? await encode(display, 'display', original, [PUBLIC_IMAGE_FORMATS.jpeg], DISPLAY_RETRY_QUALITY)
    // Each thumbnail from the next larger image: halving steps keep detail a single big step blurs.
    const thumb2x = draw(display.source, publicImageSize(original, PUBLIC_IMAGE_VARIANTS.thumb2x.longSide), surfaces)
    const thumb = thumb2x && draw(thumb2x.source, publicImageSize(original, PUBLIC_IMAGE_VARIANTS.thumb.longSide), surfaces)
    if (!displayBlob || !thumb2x || !thumb) return 'refused'
    const thumb2xBlob = await encode(thumb2x, 'thumb2x', original, THUMB_TYPES, THUMB_QUALITY)
    const thumbBlob = await encode(thumb, 'thumb', original, THUMB_TYPES, THUMB_QUALITY)
    if (!thumb2xBlob || !thumbBlob) return 'refused'
    return { display: displayBlob, thumb: thumbBlob, thumb2x: thumb2xBlob, width: original.width, height: original.height }
  }
  finally {
    release(picture)
  }
}

/**
 * A JPEG decoded straight to a fraction of its size: libjpeg scales by n/8 while it decodes, so
 * the full picture never exists. createImageBitmap's resize options do not do that in Chromium:
 * it decodes at full size first (a 48 MP photo: +250 MB, bench/RESULTS.md). WebCodecs'
 * ImageDecoder takes a desired size and picks n/8 from its area, rounding down, so it is asked
 * for half an eighth more than the smallest n/8 that still covers the display image. Null where
 * there is no ImageDecoder, or where it did not apply the orientation (the frame's rotation).
 */
async function decodeJpegScaled(file: Blob, original: Size, display: Size): Promise<VideoFrame | null> {
  if (typeof ImageDecoder !== 'function') return null
  const eighths = Math.ceil(8 * Math.max(display.width, display.height) / Math.max(original.width, original.height))
  const scale = Math.min(1, (eighths + 0.5) / 8)
  const decoder = new ImageDecoder({
    data: file.stream(), type: PUBLIC_IMAGE_FORMATS.jpeg,
    desiredWidth: Math.ceil(original.width * scale), desiredHeight: Math.ceil(original.height * scale),
  })
  try {
    const { image } = await decoder.decode()
    if (sameAspect({ width: image.displayWidth, height: image.displayHeight }, original)) return image
    image.close()
    return null
  }
  finally {
    decoder.close()
  }
}

/**
 * Decodes with the orientation applied, as small as this browser allows: a JPEG scaled while it
 * decodes (ImageDecoder), else createImageBitmap asked for the display size (which some browsers
 * honour at decode), else the whole picture, which `draw` scales.
 */
export async function decodePicture(file: Blob, original: Size | null, display: Size | null): Promise<Picture> {
  if (!original || !display) return createImageBitmap(file, { imageOrientation: 'from-image' })
  const frame = await decodeJpegScaled(file, original, display).catch(() => null)
  if (frame) return frame
  return createImageBitmap(file, { imageOrientation: 'from-image', resizeWidth: display.width, resizeHeight: display.height, resizeQuality: 'high' })
}
