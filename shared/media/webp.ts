import type { StructureRefusal } from './jpeg'
import { vp8PartitionsFit } from './vp8-header'

/**
 * WebP structure without decoding a pixel: the RIFF chunks of a still image, strictly. Accepted:
 * a lone VP8 or VP8L chunk (the simple format), or VP8X followed by an optional ALPH and one VP8,
 * or by one VP8L (the extended format, which a canvas uses for transparency). ICCP, EXIF, XMP and
 * any chunk nobody needs to draw the picture are metadata, or room for it; animation is refused
 * as not a still image.
 */

export type WebpStructure
  = | { ok: true, width: number, height: number }
    | { ok: false, reason: StructureRefusal }

const VP8X_ICC = 0x20
const VP8X_ALPHA = 0x10
/** The two top bits and the lowest of the flags byte are reserved, as are the three bytes after it. */
const VP8X_RESERVED = 0xC1
const VP8X_EXIF = 0x08
const VP8X_XMP = 0x04
const VP8X_ANIMATION = 0x02

export function isWebp(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && fourcc(bytes, 0) === 'RIFF' && fourcc(bytes, 8) === 'WEBP'
}

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!)
}

const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
const u32le = (bytes: Uint8Array, at: number) => (u24le(bytes, at) | (bytes[at + 3]! << 24)) >>> 0

interface Chunk { type: string, data: number, size: number }

type Size = { width: number, height: number }

/** A lossy key frame's size (RFC 6386, 9.1); null when it is not one, or asks the decoder to upscale. */
function vp8Size(bytes: Uint8Array, chunk: Chunk): Size | null {
  const at = chunk.data
  if (chunk.size < 10) return null
  const keyFrame = (bytes[at]! & 1) === 0
  if (!keyFrame || bytes[at + 3] !== 0x9D || bytes[at + 4] !== 0x01 || bytes[at + 5] !== 0x2A) return null
  const width = bytes[at + 6]! | (bytes[at + 7]! << 8)
  const height = bytes[at + 8]! | (bytes[at + 9]! << 8)
  if (width >> 14 || height >> 14) return null
  return { width, height }
}

/** A lossless image's size (its 0x2F signature, then 14 bits each of width − 1 and height − 1, version 0). */
function vp8lSize(bytes: Uint8Array, chunk: Chunk): Size | null {
  const at = chunk.data
  if (chunk.size < 5 || bytes[at] !== 0x2F) return null
  const bits = u32le(bytes, at + 1)
  if (bits >>> 29 !== 0) return null
  return { width: (bits & 0x3FFF) + 1, height: ((bits >>> 14) & 0x3FFF) + 1 }
}

/**
 * An ALPH chunk: announced by the VP8X alpha flag; its header byte has reserved bits 0, a
 * compression of 0 (raw: exactly one byte a pixel) or 1 (lossless) and a pre-processing of 0 or 1.
 */
function alphaRefusal(bytes: Uint8Array, chunk: Chunk, image: Size, announced: boolean): StructureRefusal | null {
  if (!announced || chunk.size < 2) return 'metadata'
  const header = bytes[chunk.data]!
  const compression = header & 0x03
  const preprocessing = (header >> 4) & 0x03
  if (header & 0xC0 || compression > 1 || preprocessing > 1) return 'wrong-format'
  if (compression === 0 && chunk.size !== 1 + image.width * image.height) return 'metadata'
  return null
}

export function readWebpStructure(bytes: Uint8Array): WebpStructure {
  if (!isWebp(bytes)) return { ok: false, reason: 'wrong-format' }
  const riffEnd = 8 + u32le(bytes, 4)
  if (riffEnd > bytes.length) return { ok: false, reason: 'truncated' }
  // Bytes after the RIFF container would travel with the image unchecked.
  if (riffEnd < bytes.length) return { ok: false, reason: 'metadata' }
  const chunks: Chunk[] = []
  for (let at = 12; at < riffEnd;) {
    if (at + 8 > riffEnd) return { ok: false, reason: 'truncated' }
    const size = u32le(bytes, at + 4)
    const chunk = { type: fourcc(bytes, at), data: at + 8, size }
    if (chunk.data + size > riffEnd) return { ok: false, reason: 'truncated' }
    chunks.push(chunk)
    // Chunks are padded to an even length.
    at = chunk.data + size + (size & 1)
  }
  const [first, ...rest] = chunks
  if (!first) return { ok: false, reason: 'truncated' }
  if (first.type === 'VP8 ' || first.type === 'VP8L') {
    if (rest.length > 0) return { ok: false, reason: 'metadata' }
    const size = first.type === 'VP8 ' ? vp8Size(bytes, first) : vp8lSize(bytes, first)
    if (size && first.type === 'VP8 ' && !vp8PartitionsFit(bytes, first.data, first.size, size.height)) return { ok: false, reason: 'metadata' }
    return size ? { ok: true, ...size } : { ok: false, reason: 'wrong-format' }
  }
  // VP8X is 10 bytes: flags, three reserved bytes, canvas width and height. Anything longer, or a
  // reserved bit set, is room for bytes no decoder reads.
  if (first.type !== 'VP8X' || first.size < 10) return { ok: false, reason: 'wrong-format' }
  const flags = bytes[first.data]!
  if (first.size !== 10 || flags & VP8X_RESERVED || bytes[first.data + 1] || bytes[first.data + 2] || bytes[first.data + 3]) return { ok: false, reason: 'metadata' }
  if (flags & VP8X_ANIMATION) return { ok: false, reason: 'wrong-format' }
  if (flags & (VP8X_ICC | VP8X_EXIF | VP8X_XMP)) return { ok: false, reason: 'metadata' }
  const canvas = { width: u24le(bytes, first.data + 4) + 1, height: u24le(bytes, first.data + 7) + 1 }
  const types = rest.map(chunk => chunk.type).join(',')
  let image: Size | null
  if (types === 'VP8 ' || types === 'ALPH,VP8 ') image = vp8Size(bytes, rest.at(-1)!)
  else if (types === 'VP8L') image = vp8lSize(bytes, rest[0]!)
  else if (rest.some(chunk => chunk.type === 'ANIM' || chunk.type === 'ANMF')) return { ok: false, reason: 'wrong-format' }
  else if (rest.some(chunk => chunk.type === 'VP8 ' || chunk.type === 'VP8L')) return { ok: false, reason: 'metadata' }
  else return { ok: false, reason: 'wrong-format' }
  if (!image || image.width !== canvas.width || image.height !== canvas.height) return { ok: false, reason: 'wrong-format' }
  const last = rest.at(-1)!
  if (last.type === 'VP8 ' && !vp8PartitionsFit(bytes, last.data, last.size, image.height)) return { ok: false, reason: 'metadata' }
  if (rest[0]!.type === 'ALPH') {
    const refusal = alphaRefusal(bytes, rest[0]!, image, Boolean(flags & VP8X_ALPHA))
    if (refusal) return { ok: false, reason: refusal }
  }
  return { ok: true, ...canvas }
}

/**
 * The same WebP without its ICCP chunk (and the VP8X flag that announces it): Chromium's canvas
 * tags every WebP with its sRGB profile, which changes nothing a browser draws (untagged is sRGB).
 * Anything that is not a well-formed WebP comes back as it was.
 */
export function stripWebpIccProfile(bytes: Uint8Array): Uint8Array {
  if (!isWebp(bytes)) return bytes
  const riffEnd = 8 + u32le(bytes, 4)
  if (riffEnd !== bytes.length) return bytes
  const kept: Uint8Array[] = []
  let flagsAt = -1
  for (let at = 12; at < riffEnd;) {
    if (at + 8 > riffEnd) return bytes
    const size = u32le(bytes, at + 4)
    const end = Math.min(riffEnd, at + 8 + size + (size & 1))
    if (at + 8 + size > riffEnd) return bytes
    const type = fourcc(bytes, at)
    if (type === 'VP8X') flagsAt = 12 + kept.reduce((sum, part) => sum + part.length, 0) + 8
    if (type !== 'ICCP') kept.push(bytes.subarray(at, end))
    at = end
  }
  const length = 12 + kept.reduce((sum, part) => sum + part.length, 0)
  if (length === bytes.length) return bytes
  const out = new Uint8Array(length)
  out.set(bytes.subarray(0, 12))
  new DataView(out.buffer).setUint32(4, length - 8, true)
  let offset = 12
  for (const part of kept) {
    out.set(part, offset)
    offset += part.length
  }
  if (flagsAt >= 0) out[flagsAt] = out[flagsAt]! & ~VP8X_ICC
  return out
}
