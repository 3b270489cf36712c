/**
 * JPEG structure without decoding a pixel: the marker segments of a file, read from its bytes.
 * Two readers share the walk: a strict one for images that will be made public (every segment up
 * to EOI must be one an encoder needs), and a lenient one that finds a phone photo's size and EXIF
 * orientation in its first bytes.
 */

import { JpegTables } from './jpeg-tables'

export type StructureRefusal = 'wrong-format' | 'metadata' | 'truncated'

export type JpegStructure
  = | { ok: true, width: number, height: number }
    | { ok: false, reason: StructureRefusal }

const SOI = 0xD8
const EOI = 0xD9
const SOS = 0xDA
const DQT = 0xDB
const DHT = 0xC4
const DRI = 0xDD
const APP0 = 0xE0
const APP1 = 0xE1
const APP14 = 0xEE
const COM = 0xFE
/** Baseline, extended sequential and progressive Huffman: all that browsers' and sharp's encoders write. */
const PLAIN_FRAMES = new Set([0xC0, 0xC1, 0xC2])

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xFF && bytes[1] === SOI && bytes[2] === 0xFF
}

const u16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length))

/**
 * An APP0 that is a bare JFIF header: "JFIF\0", version, density, and no embedded thumbnail
 * (a thumbnail would be a second, unchecked picture). 16 is its whole length field.
 */
function isPlainJfif(bytes: Uint8Array, data: number, length: number): boolean {
  return length === 16 && ascii(bytes, data, 5) === 'JFIF\0' && bytes[data + 12] === 0 && bytes[data + 13] === 0
}

/** Adobe's APP14 only says how colours were transformed: "Adobe", version, two flag words, transform. */
function isPlainAdobe(bytes: Uint8Array, data: number, length: number): boolean {
  return length === 14 && ascii(bytes, data, 5) === 'Adobe'
}

/** Where the entropy-coded data after a SOS header ends: at the next marker that is not a restart or a stuffed 0xFF. */
function endOfScan(bytes: Uint8Array, from: number): number {
  let at = from
  for (;;) {
    at = bytes.indexOf(0xFF, at)
    if (at < 0 || at + 1 >= bytes.length) return -1
    const next = bytes[at + 1]!
    if (next === 0x00 || (next >= 0xD0 && next <= 0xD7)) at += 2
    else return at
  }
}

/**
 * Walks every segment of a JPEG from SOI to EOI and accepts only what an encoder needs to
 * describe the pixels: DQT, DHT, DRI, one Huffman frame (SOF0–2, 8-bit, grey or YCbCr), scans,
 * a plain JFIF APP0 and a plain Adobe APP14. Every other APPn (EXIF, XMP, ICC, MPF…), a comment,
 * or any byte after EOI is metadata, or room for it: refused. Trailing bytes get no slack:
 * browsers' canvases and libjpeg/mozjpeg end exactly at EOI. The tables and scan headers
 * themselves are bounded to what an encoder writes (JpegTables).
 */
export function readJpegStructure(bytes: Uint8Array): JpegStructure {
  if (!isJpeg(bytes)) return { ok: false, reason: 'wrong-format' }
  let at = 2
  let frame: { width: number, height: number } | null = null
  const tables = new JpegTables()
  for (;;) {
    if (at >= bytes.length) return { ok: false, reason: 'truncated' }
    if (bytes[at] !== 0xFF) return { ok: false, reason: 'wrong-format' }
    // Any number of 0xFF fill bytes may precede a marker.
    while (at < bytes.length && bytes[at] === 0xFF) at++
    if (at >= bytes.length) return { ok: false, reason: 'truncated' }
    const marker = bytes[at]!
    at++
    if (marker === EOI) {
      if (!frame || tables.scans === 0) return { ok: false, reason: 'wrong-format' }
      if (at !== bytes.length) return { ok: false, reason: 'metadata' }
      const unused = tables.complete()
      return unused ? { ok: false, reason: unused } : { ok: true, ...frame }
    }
    if (at + 2 > bytes.length) return { ok: false, reason: 'truncated' }
    const length = u16(bytes, at)
    if (length < 2) return { ok: false, reason: 'wrong-format' }
    const data = at + 2
    const end = at + length
    if (end > bytes.length) return { ok: false, reason: 'truncated' }
    if (marker === DQT || marker === DHT) {
      const refusal = marker === DQT ? tables.quantisation(bytes, data, end) : tables.huffman(bytes, data, end)
      if (refusal) return { ok: false, reason: refusal }
    }
    else if (marker === DRI) {
      // The restart interval: two bytes, nothing else.
      if (length !== 4) return { ok: false, reason: 'wrong-format' }
    }
    else if (PLAIN_FRAMES.has(marker)) {
      if (frame || length < 8) return { ok: false, reason: 'wrong-format' }
      const precision = bytes[data]!
      const components = bytes[data + 5]!
      if (precision !== 8 || (components !== 1 && components !== 3) || length !== 8 + 3 * components) return { ok: false, reason: 'wrong-format' }
      frame = { height: u16(bytes, data + 1), width: u16(bytes, data + 3) }
      const refusal = tables.frame(bytes, data, components, marker === 0xC2)
      if (refusal) return { ok: false, reason: refusal }
    }
    else if (marker === SOS) {
      if (!frame) return { ok: false, reason: 'wrong-format' }
      const refusal = tables.scan(bytes, data, length)
      if (refusal) return { ok: false, reason: refusal }
      const next = endOfScan(bytes, end)
      if (next < 0) return { ok: false, reason: 'truncated' }
      at = next
      continue
    }
    else if (marker === APP0) {
      if (!isPlainJfif(bytes, data, length)) return { ok: false, reason: 'metadata' }
    }
    else if (marker === APP14) {
      if (!isPlainAdobe(bytes, data, length)) return { ok: false, reason: 'metadata' }
    }
    else if ((marker >= APP0 && marker <= 0xEF) || marker === COM) {
      return { ok: false, reason: 'metadata' }
    }
    else {
      // Arithmetic coding, lossless or hierarchical frames, DNL, reserved markers: no canvas writes them.
      return { ok: false, reason: 'wrong-format' }
    }
    at = end
  }
}

export interface JpegHeader {
  /** As stored, before the EXIF orientation is applied. */
  width: number
  height: number
  /** EXIF orientation 1–8 (1 when absent or unreadable). */
  orientation: number
}

/** An APP1 segment that holds EXIF (XMP, the other APP1, starts with its namespace instead). */
function isExif(bytes: Uint8Array, data: number, end: number): boolean {
  return end - data >= 14 && ascii(bytes, data, 6) === 'Exif\0\0'
}

/** The Orientation tag (0x0112) of IFD0 in an EXIF segment; 1 when it cannot be read. */
function exifOrientation(bytes: Uint8Array, data: number, end: number): number {
  const tiff = data + 6
  const order = ascii(bytes, tiff, 2)
  if (order !== 'II' && order !== 'MM') return 1
  const little = order === 'II'
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const read16 = (at: number) => (at + 2 <= end ? view.getUint16(at, little) : -1)
  const read32 = (at: number) => (at + 4 <= end ? view.getUint32(at, little) : -1)
  const ifd = read32(tiff + 4)
  if (ifd < 0) return 1
  const count = read16(tiff + ifd)
  for (let index = 0; index < count; index++) {
    const entry = tiff + ifd + 2 + index * 12
    if (entry + 12 > end) return 1
    if (read16(entry) !== 0x0112) continue
    const value = read16(entry + 8)
    return value >= 1 && value <= 8 ? value : 1
  }
  return 1
}

/**
 * A JPEG's stored size and EXIF orientation from its first bytes (the frame header follows the
 * APPn segments, usually within the first 64 KiB); null when `bytes` does not reach the frame.
 */
export function readJpegHeader(bytes: Uint8Array): JpegHeader | null {
  if (!isJpeg(bytes)) return null
  let orientation = 1
  let at = 2
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xFF) return null
    while (at < bytes.length && bytes[at] === 0xFF) at++
    const marker = bytes[at]!
    at++
    if (marker === EOI || marker === SOS || at + 2 > bytes.length) return null
    const length = u16(bytes, at)
    const data = at + 2
    const end = at + length
    if (length < 2) return null
    if (marker === APP1 && end <= bytes.length && isExif(bytes, data, end)) orientation = exifOrientation(bytes, data, end)
    // Any SOFn but DHT, JPG and DAC, which share the range.
    if (marker >= 0xC0 && marker <= 0xCF && marker !== DHT && marker !== 0xC8 && marker !== 0xCC) {
      if (data + 5 > bytes.length) return null
      const height = u16(bytes, data + 1)
      const width = u16(bytes, data + 3)
      return width > 0 && height > 0 ? { width, height, orientation } : null
    }
    at = end
  }
  return null
}

/** An APP2 segment that holds (a piece of) an ICC profile. */
function isIccSegment(bytes: Uint8Array, marker: number, data: number, length: number): boolean {
  return marker === 0xE2 && length >= 16 && ascii(bytes, data, 12) === 'ICC_PROFILE\0'
}

/**
 * The same JPEG without its ICC profile segments. Chromium's canvas tags every JPEG it encodes
 * with its sRGB profile; browsers read untagged images as sRGB, so the picture is unchanged and
 * carries one block of bytes fewer that the public check would have to trust. Anything that is
 * not a JPEG, or that ends before the first scan, comes back as it was.
 */
export function stripJpegIccProfile(bytes: Uint8Array): Uint8Array {
  if (!isJpeg(bytes)) return bytes
  const kept: Uint8Array[] = [bytes.subarray(0, 2)]
  let at = 2
  let removed = false
  while (at + 4 <= bytes.length && bytes[at] === 0xFF) {
    const marker = bytes[at + 1]!
    if (marker === SOS || marker === EOI || marker === 0xFF) break
    const length = u16(bytes, at + 2)
    const end = at + 2 + length
    if (length < 2 || end > bytes.length) return bytes
    if (isIccSegment(bytes, marker, at + 4, length)) removed = true
    else kept.push(bytes.subarray(at, end))
    at = end
  }
  if (!removed) return bytes
  kept.push(bytes.subarray(at))
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of kept) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
