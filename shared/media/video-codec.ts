/**
 * Which codec a video's picture is coded in, read from its container without decoding it, so that
 * the server knows whether a browser can play it (Chromium on Linux and most TVs cannot play HEVC)
 * with or without ffmpeg. MP4 / QuickTime: the sample entry of the first video track's `stsd`
 * (`moov/trak/mdia/minf/stbl/stsd`, the track told by its `hdlr` being `vide`). Matroska / WebM:
 * the `CodecID` of the first video `TrackEntry` in `Tracks`, which writers put before the clusters.
 *
 * Pure: only a ranged reader, like the duration readers beside it.
 */
import { findBox, readBoxHeader, type BoxHeader, type ByteReader } from './mp4-duration'
import { readElement, readUint } from './ebml'
import { MATROSKA_HEAD_BYTES } from './matroska-duration'

/** The codecs the display copy decides on; any other is named by its sample entry or CodecID. */
export type VideoCodec = 'h264' | 'hevc' | 'vp8' | 'vp9' | 'av1' | (string & {})

const MP4_SAMPLE_ENTRIES: Record<string, VideoCodec> = {
  avc1: 'h264', avc3: 'h264', hvc1: 'hevc', hev1: 'hevc', vp08: 'vp8', vp09: 'vp9', av01: 'av1',
}

const MATROSKA_CODEC_IDS: Record<string, VideoCodec> = {
  'V_MPEG4/ISO/AVC': 'h264', 'V_MPEGH/ISO/HEVC': 'hevc', 'V_VP8': 'vp8', 'V_VP9': 'vp9', 'V_AV1': 'av1',
}

/**
 * Codecs every browser a guest or a venue screen runs plays: H.264, and VP8 in WebM (what
 * Chromium's own MediaRecorder writes, which Safari plays since 14.1). Any other gets a copy.
 */
const PLAYABLE_EVERYWHERE = new Set<VideoCodec>(['h264', 'vp8'])

/** True when a copy is wanted; an unknown codec (null) is served as it is, as before codecs were read. */
export function needsDisplayCopy(codec: VideoCodec | null): boolean {
  return codec !== null && !PLAYABLE_EVERYWHERE.has(codec)
}

const MAX_TRACKS = 64

/** The boxes of `type` directly inside `box`: at most MAX_TRACKS, so a crafted file costs a few reads. */
async function childrenOf(read: ByteReader, box: BoxHeader, type: string): Promise<BoxHeader[]> {
  const found: BoxHeader[] = []
  const end = box.start + box.size
  let offset = box.start + box.headerSize
  for (let i = 0; i < 4096 && offset < end && found.length < MAX_TRACKS; i++) {
    const child = await readBoxHeader(read, offset, end)
    if (!child) break
    if (child.type === type) found.push(child)
    offset += child.size
  }
  return found
}

async function inside(read: ByteReader, box: BoxHeader | null, type: string): Promise<BoxHeader | null> {
  return box ? findBox(read, type, box.start + box.headerSize, box.start + box.size) : null
}

/** The four characters at `at` in `box`'s payload. */
async function fourCcAt(read: ByteReader, box: BoxHeader, at: number): Promise<string | null> {
  const start = box.start + box.headerSize + at
  if (start + 4 > box.start + box.size) return null
  const bytes = await read(start, start + 4)
  return bytes.length === 4 ? String.fromCharCode(...bytes) : null
}

/** The first video track's sample entry type (`hvc1`, `avc1`, …), or null. */
export async function readMp4SampleEntry(read: ByteReader, fileSize: number): Promise<string | null> {
  const moov = await findBox(read, 'moov', 0, fileSize)
  if (!moov) return null
  for (const trak of await childrenOf(read, moov, 'trak')) {
    const mdia = await inside(read, trak, 'mdia')
    const hdlr = await inside(read, mdia, 'hdlr')
    // FullBox: version and flags, pre_defined, then handler_type.
    if (!hdlr || await fourCcAt(read, hdlr, 8) !== 'vide') continue
    const stsd = await inside(read, await inside(read, await inside(read, mdia, 'minf'), 'stbl'), 'stsd')
    // FullBox, entry_count, then the first entry's size and type.
    if (stsd) return fourCcAt(read, stsd, 12)
  }
  return null
}

const ID = { header: 0x1A45DFA3, segment: 0x18538067, tracks: 0x1654AE6B, trackEntry: 0xAE, trackType: 0x83, codecId: 0x86, cluster: 0x1F43B675 } as const
const VIDEO_TRACK = 1

/** The first video track's CodecID (`V_VP9`, …) from the head of a Matroska file, or null. */
export async function readMatroskaCodecId(read: ByteReader, size: number): Promise<string | null> {
  const head = await read(0, Math.min(size, MATROSKA_HEAD_BYTES))
  const header = readElement(head, 0, head.length)
  if (!header || header.id !== ID.header) return null
  const segment = readElement(head, header.dataEnd, Number.MAX_SAFE_INTEGER)
  if (!segment || segment.id !== ID.segment) return null
  let offset = segment.dataStart
  for (let i = 0; i < 1000 && offset < head.length; i++) {
    const element = readElement(head, offset, Number.MAX_SAFE_INTEGER)
    if (!element || element.id === ID.cluster) return null
    if (element.id === ID.tracks) return videoCodecIdIn(head, element.dataStart, Math.min(element.dataEnd, head.length))
    offset = element.dataEnd
  }
  return null
}

function videoCodecIdIn(bytes: Uint8Array, start: number, end: number): string | null {
  for (let at = start; at < end;) {
    const entry = readElement(bytes, at, end)
    if (!entry) return null
    if (entry.id === ID.trackEntry) {
      let type: number | null = null
      let codecId: string | null = null
      for (let inner = entry.dataStart; inner < entry.dataEnd;) {
        const child = readElement(bytes, inner, entry.dataEnd)
        if (!child) break
        if (child.id === ID.trackType) type = readUint(bytes, child)
        if (child.id === ID.codecId) codecId = String.fromCharCode(...bytes.subarray(child.dataStart, child.dataEnd)).replace(/\0+$/, '')
        inner = child.dataEnd
      }
      if (type === VIDEO_TRACK && codecId) return codecId
    }
    at = entry.dataEnd
  }
  return null
}

/** The picture's codec, or null when the container names none this reader can find (or a read budget ran out). */
export async function readVideoCodec(read: ByteReader, size: number, container: 'mp4' | 'matroska'): Promise<VideoCodec | null> {
  try {
    if (container === 'matroska') {
      const codecId = await readMatroskaCodecId(read, size)
      return codecId ? MATROSKA_CODEC_IDS[codecId] ?? printable(codecId) : null
    }
    const entry = await readMp4SampleEntry(read, size)
    return entry ? MP4_SAMPLE_ENTRIES[entry] ?? printable(entry) : null
  }
  catch {
    return null
  }
}

/** A name read from a file is shown to the admin: anything but a short printable name is "unknown". */
function printable(name: string): VideoCodec {
  return /^[\x21-\x7E][\x20-\x7E]{0,31}$/.test(name) ? name.trim() : 'unknown'
}
