import { copyFileSync, mkdtempSync, openSync, closeSync, writeSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import sharp from 'sharp'

/** A real 2-second H.264 MP4 (320×240) that Chromium decodes and reads the duration of. */
export const CLIP = resolve(import.meta.dirname, '../fixtures/clip-2s.mp4')
export const CLIP_DURATION_SEC = 2

export const MiB = 1024 * 1024

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'event-media-browser-'))
}

/** A photo a person can recognise in a screenshot: a soft gradient with a big label. */
export async function photo(dir: string, name: string, label: string, hue: number, width = 1200, height = 900): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},55%,40%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="55%" font-family="sans-serif" font-size="${Math.round(height / 5)}" fill="white" text-anchor="middle">${label}</text>
  </svg>`
  const path = join(dir, name)
  await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toFile(path)
  return path
}

/** The same kind of picture as a Buffer, in memory (for uploads made through the API). */
export async function labelledJpeg(width: number, height: number, hue: number, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><radialGradient id="g" cx="30%" cy="30%" r="90%">
      <stop offset="0" stop-color="hsl(${hue},55%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},45%,35%)"/>
    </radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="56%" font-family="serif" font-size="${Math.round(Math.min(width, height) / 4)}" fill="white" fill-opacity="0.9" text-anchor="middle">${label}</text>
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 78 }).toBuffer()
}

/** A JPEG of about `bytes` bytes (noise does not compress), for size-limit checks. */
export async function noisyJpeg(dir: string, name: string, bytes: number): Promise<string> {
  const side = Math.ceil(Math.sqrt(bytes / 1.5))
  const raw = Buffer.alloc(side * side * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24
  const path = join(dir, name)
  await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 100 }).toFile(path)
  return path
}

/**
 * The real clip followed by an MP4 `free` box of padding: still a valid MP4 with the same
 * duration, but `size` bytes long, so it goes in 10 MiB parts.
 */
export function paddedClip(dir: string, name: string, size: number): string {
  const clip = readFileSync(CLIP)
  const padding = size - clip.length
  if (padding < 8) throw new Error('size too small for the clip')
  const path = join(dir, name)
  const fd = openSync(path, 'w')
  try {
    writeSync(fd, clip)
    const header = Buffer.alloc(8)
    header.writeUInt32BE(padding, 0)
    header.write('free', 4, 'latin1')
    writeSync(fd, header)
    const zeros = Buffer.alloc(MiB)
    for (let left = padding - 8; left > 0; left -= zeros.length) writeSync(fd, zeros, 0, Math.min(left, zeros.length))
  }
  finally {
    closeSync(fd)
  }
  return path
}

export function copyClip(dir: string, name: string): string {
  const path = join(dir, name)
  copyFileSync(CLIP, path)
  return path
}
