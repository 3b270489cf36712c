import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { readJpegHeader } from '../../shared/media/jpeg'
import { orientedSize } from '../../shared/media/public-image'
import { jpegWithGps } from '../support/fixtures'

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#369' } })

/** A big-endian ("MM") EXIF block with only IFD0's Orientation, as some cameras write it. */
function exifMotorola(orientation: number): Buffer {
  const tiff = Buffer.from([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0, 0, 0])
  const data = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])
  const head = Buffer.from([0xFF, 0xE1, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

describe('readJpegHeader', () => {
  it('reads the stored size and EXIF orientation 6 of a phone photo from its first bytes', async () => {
    const photo = await solid(2000, 1500).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    const header = readJpegHeader(photo.subarray(0, 4096))
    expect(header).toEqual({ width: 2000, height: 1500, orientation: 6 })
    expect(orientedSize(header!)).toEqual({ width: 1500, height: 2000 })
  })

  it('reads the orientation of the GPS fixture, next to its GPS block', async () => {
    expect(readJpegHeader(await jpegWithGps(64, 32))).toEqual({ width: 64, height: 32, orientation: 6 })
  })

  it('keeps the EXIF orientation when an XMP segment (the other APP1) follows it', async () => {
    const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>'
    const photo = await solid(40, 30).withMetadata({ orientation: 8 }).withXmp(xmp).jpeg().toBuffer()
    expect(readJpegHeader(photo)).toEqual({ width: 40, height: 30, orientation: 8 })
  })

  it('reads a big-endian EXIF block', async () => {
    const plain = await solid(30, 20).jpeg().toBuffer()
    const tagged = Buffer.concat([plain.subarray(0, 2), exifMotorola(8), plain.subarray(2)])
    expect(readJpegHeader(tagged)).toEqual({ width: 30, height: 20, orientation: 8 })
  })

  it('takes orientation 1 when there is no EXIF, and progressive frames too', async () => {
    expect(readJpegHeader(await solid(30, 20).jpeg({ progressive: true }).toBuffer())).toEqual({ width: 30, height: 20, orientation: 1 })
  })

  it('answers null when the bytes stop before the frame header, or are not a JPEG', async () => {
    const photo = await solid(400, 300).withMetadata({ orientation: 6 }).withIccProfile('srgb').jpeg().toBuffer()
    expect(readJpegHeader(photo.subarray(0, 100))).toBeNull()
    expect(readJpegHeader(await solid(30, 20).png().toBuffer())).toBeNull()
  })
})

describe('the original\'s oriented size on the server', () => {
  it('comes from sharp\'s metadata of the first bytes alone: a ranged read, not the whole photo', async () => {
    const photo = await solid(2000, 1500).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    expect(orientedSize(await sharp(photo.subarray(0, 4096)).metadata())).toEqual({ width: 1500, height: 2000 })
  })
})

describe('HEIC on the server (the prebuilt libvips)', () => {
  // A 64 × 48 HEIC made with libheif's heif-enc (x265): HEVC-coded, like an iPhone's.
  const heic = readFileSync(resolve(import.meta.dirname, '../fixtures/small-64x48.heic'))

  it('reads a HEIC photo\'s size from its header, so its phone-made images can be checked', async () => {
    const meta = await sharp(heic).metadata()
    expect(meta).toMatchObject({ format: 'heif', compression: 'hevc', width: 64, height: 48 })
    expect(orientedSize(meta)).toEqual({ width: 64, height: 48 })
  })

  it('cannot decode its HEVC pixels: only the phone can make its public images', async () => {
    await expect(sharp(heic).jpeg().toBuffer()).rejects.toThrow(/HEVC/)
  })
})
