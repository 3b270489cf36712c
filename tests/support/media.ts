import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
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

/**
 * The real clip, with its name in a `free` box at the end (players skip it): each copy has bytes
 * of its own, as the server stores the same bytes once per event.
 */
export function copyClip(dir: string, name: string): string {
  const path = join(dir, name)
  const note = Buffer.from(name, 'utf8')
  const box = Buffer.alloc(8)
  box.writeUInt32BE(8 + note.length, 0)
  box.write('free', 4, 'latin1')
  writeFileSync(path, Buffer.concat([readFileSync(CLIP), box, note]))
  return path
}

let copies = 0

/**
 * A copy of a JPEG, or of a `paddedClip`, whose bytes differ from every other copy (same size for
 * the clip; a JPEG gains a comment segment). The server stores the same bytes once per event
 * (docs/api.md, duplicates), so a test that needs a new upload of a file an earlier test sent
 * sends one of these (same name, in a folder of its own).
 */
export function distinctCopy(path: string): string {
  const bytes = readFileSync(path)
  const marker = Buffer.from(`copy ${++copies}`, 'latin1')
  let copy: Buffer
  if (bytes[0] === 0xFF && bytes[1] === 0xD8) {
    const segment = Buffer.alloc(4)
    segment.writeUInt16BE(0xFFFE, 0)
    segment.writeUInt16BE(marker.length + 2, 2)
    copy = Buffer.concat([bytes.subarray(0, 2), segment, marker, bytes.subarray(2)])
  }
  else {
    // Inside the `free` box paddedClip wrote after the real clip: players skip it.
    const paddingStart = readFileSync(CLIP).length + 8
    if (bytes.length < paddingStart + marker.length || bytes.toString('latin1', paddingStart - 4, paddingStart) !== 'free') throw new Error(`${path} is not a paddedClip`)
    copy = Buffer.from(bytes)
    marker.copy(copy, paddingStart)
  }
  // Same name, in a folder of its own: rows and records keep the file name the test expects.
  const folder = join(dirname(path), `copy-${copies}`)
  mkdirSync(folder)
  const target = join(folder, basename(path))
  writeFileSync(target, copy)
  return target
}
