import { blobReader, findBox, type BoxHeader, type ByteReader } from './mp4-duration'

/**
 * When a photo or video was taken, as the phone's camera wrote it, read before anything is
 * stripped: the EXIF `DateTimeOriginal` with its `OffsetTimeOriginal` of a JPEG or of a HEIF
 * photo (HEIC, AVIF), or an MP4/QuickTime `mvhd` creation time. Init sends it as `takenAt`, and
 * the server puts the upload in the moment whose window holds it (docs/api.md, "Moments"). Best
 * effort: anything unreadable is null.
 */

/** The JPEG's first markers hold the EXIF segment (APP1 is at most 64 KB). */
const JPEG_HEAD_BYTES = 128 * 1024
const TAG_EXIF_IFD = 0x8769
const TAG_DATE_TIME_ORIGINAL = 0x9003
const TAG_OFFSET_TIME_ORIGINAL = 0x9011
/** Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01. */
const MAC_EPOCH_OFFSET = 2_082_844_800
/** Older than this, a clock was never set (cameras start at 1904, 1970 or 2000). */
const EARLIEST = Date.UTC(2001, 0, 1)
/** The server refuses a takenAt more than a day ahead (a phone's wrong clock). */
const AHEAD_MS = 24 * 3600_000

/**
 * "2026:11:21 19:30:00" and "-03:00" as an instant. Without an offset, the time is read as the
 * phone shows its own clock at that date (its zone's offset then, summer time included).
 */
export function exifInstant(dateTime: string, offset: string | null): Date | null {
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(dateTime)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const o = offset ? /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim()) : null
  const date = o
    ? new Date(Date.UTC(year, month - 1, day, hour, minute, second) - (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) * 60_000)
    : new Date(year, month - 1, day, hour, minute, second)
  return Number.isNaN(date.getTime()) ? null : date
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let text = ''
  for (let at = start; at < start + length && at < bytes.length && bytes[at] !== 0; at++) text += String.fromCharCode(bytes[at]!)
  return text
}

/** The EXIF `DateTimeOriginal` (and offset) in a JPEG's head, or null. */
export function jpegTakenAt(bytes: Uint8Array): Date | null {
  if (bytes[0] !== 0xFF || bytes[1] !== 0xD8) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 2
  while (at + 4 <= bytes.length && bytes[at] === 0xFF) {
    const marker = bytes[at + 1]!
    // The picture starts (SOS) or ends: no EXIF came before it.
    if (marker === 0xDA || marker === 0xD9) return null
    const length = view.getUint16(at + 2)
    if (marker === 0xE1 && ascii(bytes, at + 4, 4) === 'Exif') return tiffTakenAt(bytes, at + 10, Math.min(bytes.length, at + 2 + length))
    at += 2 + length
  }
  return null
}

function tiffTakenAt(bytes: Uint8Array, tiff: number, end: number): Date | null {
  if (tiff + 8 > end) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const little = bytes[tiff] === 0x49
  const u16 = (at: number) => view.getUint16(at, little)
  const u32 = (at: number) => view.getUint32(at, little)
  /** The entries of the IFD at `offset` (from the TIFF header): tag → where its value sits, and its count. */
  function entries(offset: number): Map<number, { count: number, value: number }> {
    const found = new Map<number, { count: number, value: number }>()
    const start = tiff + offset
    if (offset === 0 || start + 2 > end) return found
    const count = u16(start)
    for (let n = 0; n < count; n++) {
      const entry = start + 2 + n * 12
      if (entry + 12 > end) break
      const valueCount = u32(entry + 4)
      // Values of four bytes or fewer sit in the entry itself; longer ones are pointed to.
      found.set(u16(entry), { count: valueCount, value: valueCount <= 4 ? entry + 8 : tiff + u32(entry + 8) })
    }
    return found
  }
  const ifd0 = entries(u32(tiff + 4))
  const pointer = ifd0.get(TAG_EXIF_IFD)
  if (!pointer) return null
  const exif = entries(u32(pointer.value))
  const original = exif.get(TAG_DATE_TIME_ORIGINAL)
  if (!original || original.value + original.count > end) return null
  const offset = exif.get(TAG_OFFSET_TIME_ORIGINAL)
  const offsetText = offset && offset.value + offset.count <= end ? ascii(bytes, offset.value, offset.count) : null
  return exifInstant(ascii(bytes, original.value, original.count), offsetText || null)
}

/** A HEIF `meta` box is small (item list, locations, properties); one larger is not a photo's. */
const HEIF_META_MAX_BYTES = 1024 * 1024
/** The EXIF item itself: a few KB, more with a maker note; the date sits in its first IFDs. */
const HEIF_EXIF_MAX_BYTES = 256 * 1024

/** Reads an unsigned big-endian integer of 0, 4 or 8 bytes (the sizes `iloc` declares). */
function uintOf(view: DataView, at: number, bytes: number): number {
  if (bytes === 4) return view.getUint32(at)
  if (bytes === 8) return Number(view.getBigUint64(at))
  return 0
}

/** The id of the `Exif` item in a HEIF `iinf` box's body (after its version and flags), or null. */
function exifItemId(body: Uint8Array, version: number): number | null {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  let at = version === 0 ? 2 : 4
  while (at + 8 <= body.length) {
    const size = view.getUint32(at)
    if (size < 8 || at + size > body.length) return null
    // infe, version 2 (16-bit ids) or 3 (32-bit): id, protection index, then the item's type.
    if (ascii(body, at + 4, 4) === 'infe' && size >= 20) {
      const infeVersion = body[at + 8]!
      const idBytes = infeVersion === 3 ? 4 : 2
      const id = idBytes === 4 ? view.getUint32(at + 12) : view.getUint16(at + 12)
      if (infeVersion >= 2 && ascii(body, at + 12 + idBytes + 2, 4) === 'Exif') return id
    }
    at += size
  }
  return null
}

/** Where item `id`'s bytes sit in the file, by a HEIF `iloc` box's body (one extent, in the file), or null. */
function itemExtent(body: Uint8Array, id: number): { offset: number, length: number } | null {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  const version = body[0]!
  const offsetSize = body[4]! >> 4
  const lengthSize = body[4]! & 0x0F
  const baseOffsetSize = body[5]! >> 4
  const indexSize = version === 1 || version === 2 ? body[5]! & 0x0F : 0
  let at = 6
  const count = version < 2 ? view.getUint16(at) : view.getUint32(at)
  at += version < 2 ? 2 : 4
  for (let n = 0; n < count && at < body.length; n++) {
    const itemId = version < 2 ? view.getUint16(at) : view.getUint32(at)
    at += version < 2 ? 2 : 4
    // Version 1 and 2 name a construction method: only 0, bytes in the file, is read here.
    const method = version === 1 || version === 2 ? view.getUint16(at) & 0x0F : 0
    if (version === 1 || version === 2) at += 2
    at += 2 // data_reference_index
    const base = uintOf(view, at, baseOffsetSize)
    at += baseOffsetSize
    const extents = view.getUint16(at)
    at += 2
    const first = at + indexSize
    at += extents * (indexSize + offsetSize + lengthSize)
    if (itemId !== id) continue
    if (method !== 0 || extents !== 1 || at > body.length) return null
    return { offset: base + uintOf(view, first, offsetSize), length: uintOf(view, first + offsetSize, lengthSize) }
  }
  return null
}

/** A HEIF photo's (HEIC, AVIF) EXIF `DateTimeOriginal`, found through `meta`'s `iinf` and `iloc`, or null. */
export async function heifTakenAt(read: ByteReader, size: number): Promise<Date | null> {
  const meta = await findBox(read, 'meta', 0, size)
  if (!meta || meta.size > HEIF_META_MAX_BYTES) return null
  // `meta` is a full box: its children follow a version and flags.
  const metaBytes = await read(meta.start, meta.start + meta.size)
  const inMeta: ByteReader = async (start, end) => metaBytes.subarray(start - meta.start, end - meta.start)
  const childrenFrom = meta.start + meta.headerSize + 4
  const metaEnd = meta.start + meta.size
  const iinf = await findBox(inMeta, 'iinf', childrenFrom, metaEnd)
  const iloc = await findBox(inMeta, 'iloc', childrenFrom, metaEnd)
  if (!iinf || !iloc) return null
  const bodyOf = (box: BoxHeader) => metaBytes.subarray(box.start - meta.start + box.headerSize, box.start - meta.start + box.size)
  const iinfBody = bodyOf(iinf)
  const id = exifItemId(iinfBody.subarray(4), iinfBody[0]!)
  if (id === null) return null
  const extent = itemExtent(bodyOf(iloc), id)
  if (!extent || extent.length < 8 || extent.length > HEIF_EXIF_MAX_BYTES || extent.offset + extent.length > size) return null
  const exif = await read(extent.offset, extent.offset + extent.length)
  // The item opens with the offset of the TIFF header from the end of that field ("Exif" and two zero bytes in between).
  const tiff = 4 + new DataView(exif.buffer, exif.byteOffset, exif.byteLength).getUint32(0)
  return tiffTakenAt(exif, tiff, exif.length)
}

/** An MP4/QuickTime file's `mvhd` creation time (UTC by the format), or null. */
export async function mp4TakenAt(read: ByteReader, size: number): Promise<Date | null> {
  const moov = await findBox(read, 'moov', 0, size)
  if (!moov) return null
  const mvhd = await findBox(read, 'mvhd', moov.start + moov.headerSize, moov.start + moov.size)
  if (!mvhd) return null
  const body = await read(mvhd.start + mvhd.headerSize, mvhd.start + Math.min(mvhd.size, mvhd.headerSize + 12))
  if (body.length < 8) return null
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  const seconds = body[0] === 1 ? (body.length >= 12 ? Number(view.getBigUint64(4)) : 0) : view.getUint32(4)
  return seconds ? new Date((seconds - MAC_EPOCH_OFFSET) * 1000) : null
}

const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/avif'])

/** `takenAt` for init (ISO, UTC), or null when the file says nothing believable. */
export async function readTakenAt(file: Blob, contentType: string, now = Date.now()): Promise<string | null> {
  try {
    const type = contentType.toLowerCase()
    let date: Date | null = null
    if (type === 'image/jpeg') date = jpegTakenAt(new Uint8Array(await file.slice(0, JPEG_HEAD_BYTES).arrayBuffer()))
    else if (HEIF_TYPES.has(type)) date = await heifTakenAt(blobReader(file), file.size)
    else if (type === 'video/mp4' || type === 'video/quicktime') date = await mp4TakenAt(blobReader(file), file.size)
    if (!date || date.getTime() < EARLIEST || date.getTime() > now + AHEAD_MS) return null
    return date.toISOString()
  }
  catch {
    return null
  }
}
