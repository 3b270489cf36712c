import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { readJpegStructure } from '../../shared/media/jpeg'
import {
  checkPublicImage, orientedSize, PUBLIC_IMAGE_VARIANTS, publicImageSize, stripIccProfile,
  type PublicImageExpectation,
} from '../../shared/media/public-image'

// A 12-megapixel phone photo, landscape as stored.
const PHONE = { width: 4032, height: 3024 }
const GPS = { IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' } }
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 190, g: 90, b: 60 } } })
const display = (width = 2048, height = 1536) => solid(width, height).jpeg({ quality: 85 }).toBuffer()
const thumbWebp = (width = 480, height = 360) => solid(width, height).webp({ quality: 80 }).toBuffer()

/** Pixels that do not compress: the most a JPEG of this size can weigh. */
function noise(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    raw[i] = seed >>> 24
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
}

const asDisplay = (original = PHONE): PublicImageExpectation => ({ variant: 'display', original })
const asThumb = (original = PHONE): PublicImageExpectation => ({ variant: 'thumb', original })

function concat(...parts: Uint8Array[]): Buffer {
  return Buffer.concat(parts.map(part => Buffer.from(part.buffer, part.byteOffset, part.byteLength)))
}

function segment(marker: number, body: Uint8Array | string): Buffer {
  const data = typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body)
  const head = Buffer.from([0xFF, marker, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

/** The JPEG with `extra` segments right after SOI. */
const afterSoi = (jpeg: Buffer, ...extra: Buffer[]) => concat(jpeg.subarray(0, 2), ...extra, jpeg.subarray(2))

/** Offset of the second SOS marker of a progressive JPEG (between its scans). */
function secondScan(jpeg: Buffer): number {
  let found = 0
  for (let at = 2; at < jpeg.length - 1; at++) {
    if (jpeg[at] === 0xFF && jpeg[at + 1] === 0xDA && ++found === 2) return at
  }
  throw new Error('not progressive')
}

function riffChunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.write(type, 0, 'latin1')
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body, Buffer.alloc(body.length & 1)])
}

/** A WebP with `extra` chunks appended and the RIFF size fixed. */
function withChunks(webp: Buffer, ...extra: Buffer[]): Buffer {
  const out = Buffer.concat([webp, ...extra])
  out.writeUInt32LE(out.length - 8, 4)
  return out
}

const JFIF_PLAIN = Buffer.from([0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])

describe('checkPublicImage: what passes', () => {
  it('accepts a metadata-free baseline JPEG display image of a 12 MP photo', async () => {
    expect(checkPublicImage(await display(), asDisplay())).toEqual({ ok: true, format: 'jpeg', width: 2048, height: 1536 })
  })

  it('accepts a progressive JPEG with a plain JFIF header (sharp writes neither header by default)', async () => {
    const progressive = await solid(2048, 1536).jpeg({ progressive: true }).toBuffer()
    expect(checkPublicImage(progressive, asDisplay())).toEqual({ ok: true, format: 'jpeg', width: 2048, height: 1536 })
    expect(checkPublicImage(afterSoi(progressive, segment(0xE0, JFIF_PLAIN)), asDisplay()).ok).toBe(true)
  })

  it('accepts a plain Adobe APP14 (colour transform flags only)', async () => {
    const adobe = Buffer.from([0x41, 0x64, 0x6F, 0x62, 0x65, 0, 100, 0, 0, 0, 0, 1])
    expect(checkPublicImage(afterSoi(await display(), segment(0xEE, adobe)), asDisplay()).ok).toBe(true)
  })

  it('accepts lossy, lossless and transparent WebP thumbnails', async () => {
    expect(checkPublicImage(await thumbWebp(), asThumb())).toEqual({ ok: true, format: 'webp', width: 480, height: 360 })
    expect(checkPublicImage(await solid(480, 360).webp({ lossless: true }).toBuffer(), asThumb())).toEqual({ ok: true, format: 'webp', width: 480, height: 360 })
    const alpha = await sharp({ create: { width: 480, height: 360, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).webp().toBuffer()
    expect(alpha.subarray(12, 16).toString('latin1')).toBe('VP8X')
    expect(checkPublicImage(alpha, asThumb())).toEqual({ ok: true, format: 'webp', width: 480, height: 360 })
  })

  it('compares with the original once its EXIF orientation is applied (6: a portrait)', async () => {
    const portrait = orientedSize({ ...PHONE, orientation: 6 })!
    expect(checkPublicImage(await display(1536, 2048), asDisplay(portrait))).toEqual({ ok: true, format: 'jpeg', width: 1536, height: 2048 })
    expect(checkPublicImage(await display(2048, 1536), asDisplay(portrait))).toEqual({ ok: false, reason: 'aspect' })
  })

  it('never asks for enlargement: a photo smaller than 2048 keeps its size, thumbnails still shrink', async () => {
    const small = { width: 1200, height: 900 }
    expect(checkPublicImage(await display(1200, 900), asDisplay(small)).ok).toBe(true)
    expect(checkPublicImage(await thumbWebp(480, 360), asThumb(small)).ok).toBe(true)
    expect(checkPublicImage(await display(1600, 1200), asDisplay(small))).toEqual({ ok: false, reason: 'dimensions' })
  })

  it('checks the 960 px thumbnail against its own limit', async () => {
    expect(checkPublicImage(await solid(960, 720).webp().toBuffer(), { variant: 'thumb2x', original: PHONE }).ok).toBe(true)
    expect(checkPublicImage(await solid(480, 360).webp().toBuffer(), { variant: 'thumb2x', original: PHONE })).toEqual({ ok: false, reason: 'dimensions' })
  })

  it('holds the type it was signed for', async () => {
    expect(checkPublicImage(await display(), { ...asDisplay(), contentType: 'image/jpeg' }).ok).toBe(true)
    expect(checkPublicImage(await display(), { ...asDisplay(), contentType: 'image/webp' })).toEqual({ ok: false, reason: 'wrong-format' })
    expect(checkPublicImage(await thumbWebp(), { ...asThumb(), contentType: 'image/jpeg' })).toEqual({ ok: false, reason: 'wrong-format' })
  })
})

describe('checkPublicImage: metadata is refused', () => {
  it('refuses a JPEG with GPS EXIF', async () => {
    const gps = await solid(2048, 1536).withExif(GPS).jpeg().toBuffer()
    expect(checkPublicImage(gps, asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses withMetadata() (EXIF and the ICC profile sharp keeps)', async () => {
    expect(checkPublicImage(await solid(2048, 1536).withMetadata().jpeg().toBuffer(), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses an ICC profile alone (APP2), and XMP (APP1)', async () => {
    expect(checkPublicImage(await solid(2048, 1536).withIccProfile('srgb').jpeg().toBuffer(), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(await solid(2048, 1536).withXmp(XMP).jpeg().toBuffer(), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses a comment, first or hidden between the scans of a progressive JPEG', async () => {
    expect(checkPublicImage(afterSoi(await display(), segment(0xFE, 'lat -23.55 lon -46.63')), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
    const progressive = await solid(2048, 1536).jpeg({ progressive: true }).toBuffer()
    const at = secondScan(progressive)
    const hidden = concat(progressive.subarray(0, at), segment(0xFE, 'lat -23.55'), progressive.subarray(at))
    expect(readJpegStructure(progressive).ok).toBe(true)
    expect(checkPublicImage(hidden, asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses any APPn but plain JFIF and Adobe: a JFIF thumbnail, a longer Adobe segment, APP13', async () => {
    const withThumb = Buffer.concat([JFIF_PLAIN.subarray(0, 12), Buffer.from([1, 1, 9, 9, 9])])
    expect(checkPublicImage(afterSoi(await display(), segment(0xE0, withThumb)), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
    const adobePlus = Buffer.from('Adobe\0d\0\0\0\0\x01extra', 'latin1')
    expect(checkPublicImage(afterSoi(await display(), segment(0xEE, adobePlus)), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(afterSoi(await display(), segment(0xED, 'Photoshop 3.0\0')), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses bytes after EOI, even zeros', async () => {
    expect(checkPublicImage(concat(await display(), Buffer.from('GPS -23.55,-46.63')), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(concat(await display(), Buffer.alloc(2)), asDisplay())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses WebP with EXIF, ICCP or XMP chunks', async () => {
    expect(checkPublicImage(await solid(480, 360).withExif(GPS).webp().toBuffer(), asThumb())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(await solid(480, 360).withIccProfile('srgb').webp().toBuffer(), asThumb())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(await solid(480, 360).withXmp(XMP).webp().toBuffer(), asThumb())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('refuses a WebP chunk the VP8X flags do not announce, and bytes after the RIFF container', async () => {
    const alpha = await sharp({ create: { width: 480, height: 360, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).webp().toBuffer()
    expect(checkPublicImage(withChunks(alpha, riffChunk('EXIF', Buffer.from('MM\0*GPS'))), asThumb())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(withChunks(await thumbWebp(), riffChunk('XYZW', Buffer.from('payload'))), asThumb())).toEqual({ ok: false, reason: 'metadata' })
    expect(checkPublicImage(concat(await thumbWebp(), Buffer.from('trailer')), asThumb())).toEqual({ ok: false, reason: 'metadata' })
  })
})

describe('checkPublicImage: format, size and shape', () => {
  it('refuses PNG, GIF and HTML as wrong-format', async () => {
    expect(checkPublicImage(await solid(480, 360).png().toBuffer(), asThumb())).toEqual({ ok: false, reason: 'wrong-format' })
    expect(checkPublicImage(await solid(480, 360).gif().toBuffer(), asThumb())).toEqual({ ok: false, reason: 'wrong-format' })
    expect(checkPublicImage(Buffer.from('<!doctype html><script>alert(1)</script>'), asThumb())).toEqual({ ok: false, reason: 'wrong-format' })
  })

  it('refuses an animated WebP', async () => {
    const frames = await Promise.all([1, 2].map(n => solid(480, 360).tint({ r: n * 100, g: 0, b: 0 }).png().toBuffer()))
    const animated = await sharp(frames, { join: { animated: true } }).webp().toBuffer()
    expect(animated.includes(Buffer.from('ANMF'))).toBe(true)
    expect(checkPublicImage(animated, asThumb())).toEqual({ ok: false, reason: 'wrong-format' })
  })

  it('refuses truncated images', async () => {
    const jpeg = await display()
    expect(checkPublicImage(jpeg.subarray(0, jpeg.length >> 1), asDisplay())).toEqual({ ok: false, reason: 'truncated' })
    expect(checkPublicImage(jpeg.subarray(0, jpeg.length - 2), asDisplay())).toEqual({ ok: false, reason: 'truncated' })
    const webp = await thumbWebp()
    expect(checkPublicImage(webp.subarray(0, webp.length - 10), asThumb())).toEqual({ ok: false, reason: 'truncated' })
    expect(checkPublicImage(new Uint8Array(0), asThumb())).toEqual({ ok: false, reason: 'truncated' })
  })

  it('refuses a longest side beyond the limit, or more than two pixels short of the expected one', async () => {
    expect(checkPublicImage(await display(2100, 1575), asDisplay())).toEqual({ ok: false, reason: 'dimensions' })
    expect(checkPublicImage(await display(1024, 768), asDisplay())).toEqual({ ok: false, reason: 'dimensions' })
    expect(checkPublicImage(await display(2046, 1535), asDisplay()).ok).toBe(true)
    expect(checkPublicImage(await display(2045, 1534), asDisplay())).toEqual({ ok: false, reason: 'dimensions' })
    expect(checkPublicImage(await thumbWebp(960, 720), asThumb())).toEqual({ ok: false, reason: 'dimensions' })
  })

  it('refuses an aspect ratio more than 2 % off the original', async () => {
    expect(checkPublicImage(await display(2048, 1152), asDisplay())).toEqual({ ok: false, reason: 'aspect' })
    // 2048 × 1515 is 1.3 % wider than 4:3; 2048 × 1500 is 2.4 %.
    expect(checkPublicImage(await display(2048, 1515), asDisplay()).ok).toBe(true)
    expect(checkPublicImage(await display(2048, 1500), asDisplay())).toEqual({ ok: false, reason: 'aspect' })
  })

  it('judges a narrow panorama by the pixel rounding can move it, not by 2 %', async () => {
    const panorama = { width: 12_000, height: 100 }
    expect(checkPublicImage(await thumbWebp(480, 4), asThumb(panorama)).ok).toBe(true)
    expect(checkPublicImage(await thumbWebp(480, 6), asThumb(panorama))).toEqual({ ok: false, reason: 'aspect' })
    // The same shape on its side is not the same picture.
    expect(checkPublicImage(await thumbWebp(4, 480), asThumb(panorama))).toEqual({ ok: false, reason: 'aspect' })
  })

  it('refuses an image over its variant byte cap before reading it', async () => {
    const square = { width: 4000, height: 4000 }
    const heavy = await noise(480, 480).jpeg({ quality: 100 }).toBuffer()
    expect(heavy.length).toBeGreaterThan(PUBLIC_IMAGE_VARIANTS.thumb.maxBytes)
    expect(checkPublicImage(heavy, asThumb(square))).toEqual({ ok: false, reason: 'too-large' })
  })

  it('leaves room under each cap for the noisiest square picture at the qualities the phone uses', async () => {
    const square = { width: 4000, height: 4000 }
    const worstDisplay = await noise(2048, 2048).jpeg({ quality: 85 }).toBuffer()
    expect(checkPublicImage(worstDisplay, asDisplay(square)).ok).toBe(true)
    for (const [variant, side] of [['thumb2x', 960], ['thumb', 480]] as const) {
      for (const encoded of [noise(side, side).webp({ quality: 80 }), noise(side, side).jpeg({ quality: 80 })]) {
        expect(checkPublicImage(await encoded.toBuffer(), { variant, original: square }).ok).toBe(true)
      }
    }
  })
})

describe('stripIccProfile', () => {
  it('drops the ICC segment of a JPEG and nothing else: the pixels are the same and the check passes', async () => {
    const tagged = await noise(480, 360).withIccProfile('srgb').jpeg().toBuffer()
    const stripped = stripIccProfile(tagged)
    expect(stripped.length).toBeLessThan(tagged.length)
    expect(checkPublicImage(stripped, asThumb())).toEqual({ ok: true, format: 'jpeg', width: 480, height: 360 })
    const [before, after] = await Promise.all([tagged, stripped].map(bytes => sharp(bytes).raw().toBuffer()))
    expect(Buffer.compare(before!, after!)).toBe(0)
  })

  it('drops the ICCP chunk and its VP8X flag from a WebP, keeping the alpha', async () => {
    const tagged = await sharp({ create: { width: 480, height: 360, channels: 4, background: { r: 9, g: 99, b: 199, alpha: 0.5 } } })
      .withIccProfile('srgb').webp().toBuffer()
    expect(checkPublicImage(tagged, asThumb())).toEqual({ ok: false, reason: 'metadata' })
    const stripped = Buffer.from(stripIccProfile(tagged))
    expect(stripped.includes(Buffer.from('ICCP'))).toBe(false)
    expect(stripped.includes(Buffer.from('ALPH'))).toBe(true)
    expect(checkPublicImage(stripped, asThumb())).toEqual({ ok: true, format: 'webp', width: 480, height: 360 })
    expect((await sharp(stripped).metadata()).hasAlpha).toBe(true)
  })

  it('leaves EXIF alone, so the check still refuses it', async () => {
    const gps = await solid(480, 360).withExif(GPS).withIccProfile('srgb').jpeg().toBuffer()
    expect(checkPublicImage(stripIccProfile(gps), asThumb())).toEqual({ ok: false, reason: 'metadata' })
  })

  it('returns anything else unchanged', async () => {
    const png = await solid(10, 10).png().toBuffer()
    expect(stripIccProfile(png)).toBe(png)
    const plain = await display()
    expect(stripIccProfile(plain)).toBe(plain)
  })
})

describe('orientedSize and publicImageSize', () => {
  it('swaps width and height for orientations 5 to 8 only', () => {
    for (const orientation of [1, 2, 3, 4, undefined]) expect(orientedSize({ width: 4032, height: 3024, orientation })).toEqual({ width: 4032, height: 3024 })
    for (const orientation of [5, 6, 7, 8]) expect(orientedSize({ width: 4032, height: 3024, orientation })).toEqual({ width: 3024, height: 4032 })
  })

  it('answers null when the size is unknown', () => {
    expect(orientedSize({})).toBeNull()
    expect(orientedSize({ width: 0, height: 10 })).toBeNull()
  })

  it('brings the longest side down to the limit, never up, and keeps at least one pixel', () => {
    expect(publicImageSize({ width: 3024, height: 4032 }, 2048)).toEqual({ width: 1536, height: 2048 })
    expect(publicImageSize({ width: 8000, height: 6000 }, 480)).toEqual({ width: 480, height: 360 })
    expect(publicImageSize({ width: 800, height: 600 }, 2048)).toEqual({ width: 800, height: 600 })
    expect(publicImageSize({ width: 100_000, height: 10 }, 480)).toEqual({ width: 480, height: 1 })
  })
})
