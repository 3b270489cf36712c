import sharp from 'sharp'
import { isJpeg } from '#shared/media/jpeg'
import { readVp8Layout } from '#shared/media/vp8-header'
import { isWebp } from '#shared/media/webp'

/**
 * Where an image's coded data ends is known only by decoding it: a decoder stops after the last
 * block or macroblock and ignores whatever follows inside the last JPEG scan, the last VP8
 * partition or the VP8L bitstream, so bytes appended there pass every structural check. This asks
 * libjpeg/libwebp (through sharp) instead: the image must decode without a warning, and must NOT
 * decode once its last CUT_BYTES coded bytes are removed. An encoder flushes its coder and stops
 * (at most 3 spare bytes with libwebp, none with libjpeg), so a shortened real image is cut off;
 * one that still decodes carried at least CUT_BYTES its picture does not need.
 */
const CUT_BYTES = 8

async function decodes(bytes: Uint8Array): Promise<boolean> {
  return sharp(bytes, { failOn: 'warning' }).raw().toBuffer().then(() => true, () => false)
}

/** The JPEG without the CUT_BYTES before its EOI (the end of its last scan). */
function shortenedJpeg(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - CUT_BYTES)
  out.set(bytes.subarray(0, bytes.length - 2 - CUT_BYTES))
  out.set(bytes.subarray(bytes.length - 2), out.length - 2)
  return out
}

interface RiffChunk { type: string, at: number, data: number, size: number }

function riffChunks(bytes: Uint8Array): RiffChunk[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunks: RiffChunk[] = []
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = view.getUint32(at + 4, true)
    chunks.push({ type: String.fromCharCode(...bytes.subarray(at, at + 4)), at, data: at + 8, size })
    at += 8 + size + (size & 1)
  }
  return chunks
}

/** The WebP with `cut` bytes taken out of `chunk` at `from` (chunk and RIFF sizes rewritten). */
function withoutBytes(bytes: Uint8Array, chunk: RiffChunk, from: number, cut: number): Uint8Array {
  const size = chunk.size - cut
  const parts = [
    bytes.subarray(0, chunk.at + 8),
    bytes.subarray(chunk.data, from),
    bytes.subarray(from + cut, chunk.data + chunk.size),
    new Uint8Array(size & 1),
    bytes.subarray(chunk.data + chunk.size + (chunk.size & 1)),
  ]
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  const view = new DataView(out.buffer)
  view.setUint32(4, out.length - 8, true)
  view.setUint32(chunk.at + 4, size, true)
  return out
}

/** A VP8 chunk whose first partition (the modes) lost its last CUT_BYTES, its frame tag rewritten. */
function withShorterFirstPartition(bytes: Uint8Array, chunk: RiffChunk): Uint8Array | null {
  const layout = readVp8Layout(bytes, chunk.data, chunk.size)
  if (!layout || layout.firstPartitionSize <= CUT_BYTES) return null
  const out = withoutBytes(bytes, chunk, chunk.data + 10 + layout.firstPartitionSize - CUT_BYTES, CUT_BYTES)
  const tag = (out[chunk.data]! | (out[chunk.data + 1]! << 8) | (out[chunk.data + 2]! << 16)) - (CUT_BYTES << 5)
  out[chunk.data] = tag & 0xFF
  out[chunk.data + 1] = (tag >> 8) & 0xFF
  out[chunk.data + 2] = (tag >> 16) & 0xFF
  return out
}

/** Every way to shorten the image's coded data at an end a decoder does not check by itself. */
function shortenings(bytes: Uint8Array): Uint8Array[] {
  if (isJpeg(bytes)) return bytes.length > CUT_BYTES + 4 ? [shortenedJpeg(bytes)] : []
  if (!isWebp(bytes)) return []
  const shortened: Uint8Array[] = []
  for (const chunk of riffChunks(bytes)) {
    if (!['VP8 ', 'VP8L', 'ALPH'].includes(chunk.type) || chunk.size <= CUT_BYTES) continue
    // A raw alpha plane's size is fixed by the structural check; a compressed one is a bitstream.
    if (chunk.type === 'ALPH' && (bytes[chunk.data]! & 0x03) === 0) continue
    shortened.push(withoutBytes(bytes, chunk, chunk.data + chunk.size - CUT_BYTES, CUT_BYTES))
    if (chunk.type === 'VP8 ') {
      const first = withShorterFirstPartition(bytes, chunk)
      if (first) shortened.push(first)
    }
  }
  return shortened
}

/**
 * Does the image's coded data end where its bytes do? Run after the structural check passed
 * (checkPublicImage, checkPoster): it decodes the image once, and once per shortened copy.
 */
export async function codedDataFillsImage(bytes: Uint8Array): Promise<boolean> {
  if (!(await decodes(bytes))) return false
  for (const shortened of shortenings(bytes)) {
    if (await decodes(shortened)) return false
  }
  return true
}
