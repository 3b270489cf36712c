/**
 * Reads a video's duration from the `mvhd` box of an MP4 or QuickTime file without decoding it:
 * the fallback for phones whose browser cannot decode the codec (HEVC `.mov` on many Androids),
 * where a <video> element never reports metadata. Reads only box headers and the one small box.
 */

/** Reads bytes [start, end) of the file; may return fewer at the end of the file. */
export type ByteReader = (start: number, end: number) => Promise<Uint8Array>

const MAX_BOXES = 4096

export interface BoxHeader { type: string, start: number, headerSize: number, size: number }

export async function readBoxHeader(read: ByteReader, offset: number, limit: number): Promise<BoxHeader | null> {
  if (offset + 8 > limit) return null
  const bytes = await read(offset, Math.min(offset + 16, limit))
  if (bytes.length < 8) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let size = view.getUint32(0)
  const type = String.fromCharCode(bytes[4]!, bytes[5]!, bytes[6]!, bytes[7]!)
  let headerSize = 8
  if (size === 1) {
    if (bytes.length < 16) return null
    size = Number(view.getBigUint64(8))
    headerSize = 16
  }
  else if (size === 0) {
    size = limit - offset
  }
  if (size < headerSize || offset + size > limit) return null
  return { type, start: offset, headerSize, size }
}

export async function findBox(read: ByteReader, type: string, from: number, to: number): Promise<BoxHeader | null> {
  let offset = from
  for (let i = 0; i < MAX_BOXES && offset < to; i++) {
    const box = await readBoxHeader(read, offset, to)
    if (!box) return null
    if (box.type === type) return box
    offset += box.size
  }
  return null
}

/** The fragment duration of `moov/mvex/mehd`, in the movie's timescale, or null. */
async function readMehd(read: ByteReader, moov: BoxHeader): Promise<number | null> {
  const mvex = await findBox(read, 'mvex', moov.start + moov.headerSize, moov.start + moov.size)
  if (!mvex) return null
  const mehd = await findBox(read, 'mehd', mvex.start + mvex.headerSize, mvex.start + mvex.size)
  if (!mehd) return null
  const body = await read(mehd.start + mehd.headerSize, mehd.start + Math.min(mehd.size, mehd.headerSize + 12))
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  if (body[0] === 1 && body.length >= 12) return Number(view.getBigUint64(4))
  return body.length >= 8 ? view.getUint32(4) : null
}

/** Seconds, or null when the file is not an MP4/QuickTime file with a readable `mvhd` (or, fragmented, `mehd`). */
export async function readMp4Duration(read: ByteReader, fileSize: number): Promise<number | null> {
  try {
    const moov = await findBox(read, 'moov', 0, fileSize)
    if (!moov) return null
    const mvhd = await findBox(read, 'mvhd', moov.start + moov.headerSize, moov.start + moov.size)
    if (!mvhd) return null
    const body = await read(mvhd.start + mvhd.headerSize, mvhd.start + Math.min(mvhd.size, mvhd.headerSize + 32))
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
    const version = body[0]
    let timescale: number
    let duration: number
    if (version === 1 && body.length >= 32) {
      timescale = view.getUint32(20)
      duration = Number(view.getBigUint64(24))
    }
    else if (version === 0 && body.length >= 20) {
      timescale = view.getUint32(12)
      duration = view.getUint32(16)
    }
    else {
      return null
    }
    // A fragmented file (a recorder's) may leave mvhd at zero and state its length in mvex/mehd.
    if (duration === 0) duration = await readMehd(read, moov) ?? 0
    // All ones means "unknown" in the format; zero timescale would divide by zero.
    if (!timescale || duration === 0xFFFFFFFF || !Number.isFinite(duration / timescale)) return null
    const seconds = duration / timescale
    return seconds > 0 ? seconds : null
  }
  catch {
    return null
  }
}

/** A ByteReader over a Blob or File (the browser's, or Node's). */
export function blobReader(blob: Blob): ByteReader {
  return async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer())
}
