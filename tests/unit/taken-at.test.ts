import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exifInstant, readTakenAt } from '../../shared/media/taken-at'
import sharp from 'sharp'
import { lavfi, makeMedia, testPicture } from '../support/ffmpeg-media'
import { labelledJpeg, tempDir } from '../support/media'

/** When a file was taken, as the phone reads it before sending: real files written by exiftool and ffmpeg. */
describe('takenAt from a file\'s own metadata', () => {
  const dir = tempDir()
  const NOW = Date.parse('2026-11-27T12:00:00Z')

  async function jpegWith(name: string, tags: string[], byteOrder?: 'II' | 'MM'): Promise<Blob> {
    const path = join(dir, name)
    writeFileSync(path, await labelledJpeg(320, 240, 40, name))
    execFileSync('exiftool', ['-q', '-overwrite_original', ...(byteOrder ? [`-ExifByteOrder=${byteOrder === 'II' ? 'Little-endian (Intel, II)' : 'Big-endian (Motorola, MM)'}`] : []), ...tags, path])
    return new Blob([new Uint8Array(readFileSync(path))])
  }

  it('reads DateTimeOriginal with its OffsetTimeOriginal, in either byte order', async () => {
    for (const order of ['II', 'MM'] as const) {
      const file = await jpegWith(`offset-${order}.jpg`, ['-DateTimeOriginal=2026:11:21 19:30:05', '-OffsetTimeOriginal=-03:00'], order)
      expect(await readTakenAt(file, 'image/jpeg', NOW), order).toBe('2026-11-21T22:30:05.000Z')
    }
    const east = await jpegWith('east.jpg', ['-DateTimeOriginal=2026:11:21 19:30:00', '-OffsetTimeOriginal=+05:30'])
    expect(await readTakenAt(east, 'image/jpeg', NOW)).toBe('2026-11-21T14:00:00.000Z')
  })

  it('without an offset, reads the time as the device\'s clock showed it then', async () => {
    const file = await jpegWith('local.jpg', ['-DateTimeOriginal=2026:07:01 20:15:00'])
    expect(await readTakenAt(file, 'image/jpeg', NOW)).toBe(new Date(2026, 6, 1, 20, 15, 0).toISOString())
    expect(exifInstant('2026:07:01 20:15:00', null)!.toISOString()).toBe(new Date(2026, 6, 1, 20, 15, 0).toISOString())
  })

  it('answers null for a JPEG without the date, a clock never set, a date more than a day ahead, and other types', async () => {
    expect(await readTakenAt(new Blob([new Uint8Array(await labelledJpeg(320, 240, 90, 'plain'))]), 'image/jpeg', NOW)).toBeNull()
    expect(await readTakenAt(await jpegWith('unset.jpg', ['-DateTimeOriginal=2000:01:01 00:00:00']), 'image/jpeg', NOW)).toBeNull()
    expect(await readTakenAt(await jpegWith('ahead.jpg', ['-DateTimeOriginal=2026:11:29 12:00:00', '-OffsetTimeOriginal=+00:00']), 'image/jpeg', NOW)).toBeNull()
    expect(await readTakenAt(new Blob([new Uint8Array([1, 2, 3])]), 'image/jpeg', NOW)).toBeNull()
    expect(await readTakenAt(new Blob(['x']), 'image/png', NOW)).toBeNull()
  })

  /**
   * A HEIF photo: AVIF written by sharp, its EXIF item added by exiftool. HEIC is the same container
   * (`meta` → `iinf` names the Exif item, `iloc` says where it sits) around another codec; Debian
   * has no HEVC image encoder, so the HEIC case is read through the container it shares.
   */
  async function heifWith(name: string, tags: string[]): Promise<Blob> {
    const path = join(dir, name)
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#884422' } }).avif({ effort: 0 }).toFile(path)
    if (tags.length) execFileSync('exiftool', ['-q', '-overwrite_original', ...tags, path])
    return new Blob([new Uint8Array(readFileSync(path))])
  }

  it('reads a HEIF photo\'s DateTimeOriginal and offset from its Exif item, under each HEIF type', async () => {
    const file = await heifWith('dated.avif', ['-DateTimeOriginal=2026:11:21 19:30:05', '-OffsetTimeOriginal=-03:00'])
    for (const type of ['image/heic', 'image/heif', 'image/avif']) expect(await readTakenAt(file, type, NOW), type).toBe('2026-11-21T22:30:05.000Z')
    const local = await heifWith('local.avif', ['-DateTimeOriginal=2026:07:01 20:15:00'])
    expect(await readTakenAt(local, 'image/heic', NOW)).toBe(new Date(2026, 6, 1, 20, 15, 0).toISOString())
    expect(await readTakenAt(await heifWith('plain.avif', []), 'image/heic', NOW)).toBeNull()
    expect(await readTakenAt(await heifWith('other-tag.avif', ['-Artist=Tia']), 'image/heic', NOW)).toBeNull()
    expect(await readTakenAt(new Blob([new Uint8Array([0, 0, 0, 8, 0x6D, 0x65, 0x74, 0x61])]), 'image/heic', NOW)).toBeNull()
  })

  it('reads an MP4\'s mvhd creation time (UTC), and none when it was left at zero', async () => {
    const picture = lavfi(testPicture(1, '160x120', 5))
    const dated = makeMedia(join(dir, 'dated.mp4'), picture, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-metadata', 'creation_time=2026-11-21T22:30:00Z'])
    expect(await readTakenAt(new Blob([new Uint8Array(dated)]), 'video/mp4', NOW)).toBe('2026-11-21T22:30:00.000Z')
    const undated = makeMedia(join(dir, 'undated.mp4'), picture, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'])
    expect(await readTakenAt(new Blob([new Uint8Array(undated)]), 'video/mp4', NOW)).toBeNull()
  })
})
