/**
 * A spoken guestbook message's own tags (title, artist, comment, encoder notes…), blanked in the
 * bytes without re-encoding: the recording is served to every guest as stored, and a phone's
 * recorder may write the guest's name, their device, or where they were into it. Every change
 * keeps the file's length and leaves the sound untouched; what is left is a valid file of the
 * same container. The recorded position itself is also found by the video scanner
 * (shared/media/video-location.ts), which confirm runs on MP4 and Matroska as for a video.
 *
 * - MP4 (`audio/mp4`): the `udta` and `meta` boxes (top level, in `moov`, in each `trak`) become
 *   `free` boxes of the same size, their content zeroed (`ilst` with its title and comment inside).
 *   A track whose handler is `vide` makes the file a video.
 * - Matroska/WebM (`audio/webm`): `Tags`, and `Title` in `Info` and `Name` in each track, become
 *   `Void` elements of the same size. A track of type 1 (video) makes the file a video.
 * - MP3 and raw AAC: an ID3v2 tag at the start keeps its header and becomes all padding; an ID3v1
 *   tag at the end keeps its `TAG` mark, its fields emptied; an APEv2 tag at the end keeps its
 *   header and footer, its items zeroed.
 * - Ogg (`audio/ogg`): the comment list of Opus's `OpusTags` or of Vorbis's comment header is
 *   emptied (count 0, then zero padding, which both formats allow) and the page's checksum written
 *   again (the vendor string, the encoder's name, is not the guest's).
 *
 * The bytes must be a stream of the family, and its duration is read from them: MP4 `mvhd` (or a
 * fragmented file's `mehd`); Matroska's `Info/Duration` and its last cluster's end, the longer
 * (matroska-duration.ts; a browser's WebM recording has no `Duration`); Ogg's pages, every one
 * whole with its checksum, and the last granule position (ogg-pages.ts); MP3 and ADTS frames, at
 * least three chained, counted over the whole file (audio-frames.ts). Only an MP4 or Matroska file
 * that states no length anywhere has an unknown duration (null).
 */

import { readMp4Duration } from './mp4-duration'
import { readElement, readUint, type Element } from './ebml'
import { readAdtsAudio, readMpegAudio } from './audio-frames'
import { readMatroskaDuration } from './matroska-duration'
import { oggCrc, readOggStream } from './ogg-pages'

export type AudioFamily = 'webm' | 'mp4' | 'ogg' | 'mpeg' | 'aac'

export type AudioClean
  = | { ok: true, bytes: Uint8Array, changed: boolean, blanked: string[], durationSec: number | null }
    | { ok: false, reason: 'not-audio' | 'unreadable' }

const FAMILY_OF_TYPE: Record<string, AudioFamily> = {
  'audio/webm': 'webm', 'audio/mp4': 'mp4', 'audio/ogg': 'ogg', 'audio/mpeg': 'mpeg', 'audio/aac': 'aac',
}

/** What file-type may report for each family's first bytes (WebM and MP4 audio often read as their video types). */
const SNIFFED_TYPES: Record<AudioFamily, readonly string[]> = {
  webm: ['audio/webm', 'video/webm', 'video/x-matroska', 'audio/x-matroska'],
  mp4: ['audio/mp4', 'audio/x-m4a', 'video/mp4', 'audio/x-m4b', 'video/x-m4v'],
  ogg: ['audio/ogg', 'audio/opus', 'audio/ogg; codecs=opus'],
  mpeg: ['audio/mpeg'],
  aac: ['audio/aac', 'audio/aacp'],
}

export function audioFamilyOf(contentType: string): AudioFamily | null {
  return FAMILY_OF_TYPE[contentType] ?? null
}

/** Whether the type found in the first bytes belongs to the declared audio type's container family. */
export function sniffedAudioMatches(contentType: string, sniffed: string | undefined): boolean {
  const family = audioFamilyOf(contentType)
  return !!family && !!sniffed && SNIFFED_TYPES[family].includes(sniffed)
}

const text = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length))

// ---- MP4 -------------------------------------------------------------------------------------

/** Boxes that hold tags, blanked wherever they are found. */
const MP4_TAG_BOXES = new Set(['udta', 'meta'])
/** Boxes walked into to find them (and the tracks' handlers). */
const MP4_CONTAINERS = new Set(['moov', 'trak', 'mdia'])
const MAX_MP4_BOXES = 10_000

interface Mp4Walk { blanked: string[], video: boolean, boxes: number }

function walkMp4(bytes: Uint8Array, from: number, to: number, path: string, walk: Mp4Walk): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = from
  while (offset + 8 <= to) {
    if (++walk.boxes > MAX_MP4_BOXES) return false
    let size = view.getUint32(offset)
    const type = text(bytes, offset + 4, 4)
    let header = 8
    if (size === 1) {
      if (offset + 16 > to) return false
      size = Number(view.getBigUint64(offset + 8))
      header = 16
    }
    else if (size === 0) {
      size = to - offset
    }
    if (size < header || offset + size > to) return false
    if (MP4_TAG_BOXES.has(type)) {
      // Same size, new type: players skip a `free` box, and nothing else moves. Its content is
      // zeroed too: a renamed box would still hand the title to anyone reading the bytes.
      bytes.set([0x66, 0x72, 0x65, 0x65], offset + 4)
      bytes.fill(0, offset + header, offset + size)
      walk.blanked.push(`${path}${type}`)
    }
    else if (type === 'hdlr' && path.endsWith('mdia/') && size >= header + 12) {
      if (text(bytes, offset + header + 8, 4) === 'vide') walk.video = true
    }
    else if (MP4_CONTAINERS.has(type)) {
      if (!walkMp4(bytes, offset + header, offset + size, `${path}${type}/`, walk)) return false
    }
    offset += size
  }
  return true
}

// ---- Matroska / WebM ----------------------------------------------------------------------------

const EBML = {
  header: 0x1A45DFA3, segment: 0x18538067, info: 0x1549A966, tracks: 0x1654AE6B, trackEntry: 0xAE,
  trackType: 0x83, name: 0x536E, title: 0x7BA9,
  tags: 0x1254C367, cluster: 0x1F43B675, void: 0xEC,
} as const
/** Elements that sit directly in a Segment: one of them ends a Cluster of unknown size. */
const SEGMENT_CHILDREN = new Set([0x114D9B74, EBML.info, EBML.tracks, EBML.tags, EBML.cluster, 0x1C53BB6B, 0x1941A469, 0x1043A770])
const MAX_EBML_ELEMENTS = 200_000

/** Rewrites the element at [start, end) as a Void element of the same length, its content zeroed. */
function voidElement(bytes: Uint8Array, start: number, end: number): void {
  const length = end - start
  bytes.fill(0, start, end)
  bytes[start] = EBML.void
  if (length - 2 <= 126) {
    bytes[start + 1] = 0x80 | (length - 2)
    return
  }
  // An 8-byte size: 0x01 then the data length in 7 bytes.
  const data = length - 9
  bytes[start + 1] = 0x01
  for (let i = 0; i < 7; i++) bytes[start + 8 - i] = Math.floor(data / 256 ** i) % 256
}

interface MatroskaWalk { blanked: string[], video: boolean, elements: number }

function* children(bytes: Uint8Array, from: number, to: number, walk: MatroskaWalk): Generator<Element> {
  let offset = from
  while (offset < to) {
    if (++walk.elements > MAX_EBML_ELEMENTS) throw new RangeError('too many elements')
    const element = readElement(bytes, offset, to)
    if (!element) throw new RangeError('unreadable element')
    yield element
    offset = element.dataEnd
  }
}

function walkMatroska(bytes: Uint8Array, walk: MatroskaWalk): void {
  const header = readElement(bytes, 0, bytes.length)
  if (!header || header.id !== EBML.header) throw new RangeError('no EBML header')
  const segment = readElement(bytes, header.dataEnd, bytes.length)
  if (!segment || segment.id !== EBML.segment) throw new RangeError('no segment')
  let offset = segment.dataStart
  const end = segment.dataEnd
  while (offset < end) {
    if (++walk.elements > MAX_EBML_ELEMENTS) throw new RangeError('too many elements')
    const element = readElement(bytes, offset, end)
    if (!element) throw new RangeError('unreadable element')
    if (element.id === EBML.tags) {
      voidElement(bytes, element.start, element.dataEnd)
      walk.blanked.push('Tags')
    }
    else if (element.id === EBML.info) {
      for (const child of children(bytes, element.dataStart, element.dataEnd, walk)) {
        if (child.id === EBML.title) {
          voidElement(bytes, child.start, child.dataEnd)
          walk.blanked.push('Info/Title')
        }
      }
    }
    else if (element.id === EBML.tracks) {
      for (const entry of children(bytes, element.dataStart, element.dataEnd, walk)) {
        if (entry.id !== EBML.trackEntry) continue
        for (const field of children(bytes, entry.dataStart, entry.dataEnd, walk)) {
          if (field.id === EBML.trackType && readUint(bytes, field) === 1) walk.video = true
          if (field.id === EBML.name) {
            voidElement(bytes, field.start, field.dataEnd)
            walk.blanked.push('Tracks/Name')
          }
        }
      }
    }
    else if (element.id === EBML.cluster && element.unknownSize) {
      // A live recording's clusters have no size: one ends where an element of the segment begins.
      let inner = element.dataStart
      while (inner < end) {
        const child = readElement(bytes, inner, end)
        if (!child || SEGMENT_CHILDREN.has(child.id)) break
        if (++walk.elements > MAX_EBML_ELEMENTS) throw new RangeError('too many elements')
        inner = child.dataEnd
      }
      offset = inner
      continue
    }
    offset = element.dataEnd
  }
}

// ---- ID3 and APE (MP3, AAC) -----------------------------------------------------------------------------

function blankId3(bytes: Uint8Array, blanked: string[]): void {
  if (bytes.length >= 10 && text(bytes, 0, 3) === 'ID3') {
    // Syncsafe size: 7 bits a byte. The header stays; a tag of only padding is a valid tag.
    const size = ((bytes[6]! & 0x7F) << 21) | ((bytes[7]! & 0x7F) << 14) | ((bytes[8]! & 0x7F) << 7) | (bytes[9]! & 0x7F)
    bytes[5] = 0
    bytes.fill(0, 10, Math.min(bytes.length, 10 + size))
    blanked.push('ID3v2')
  }
  const tail = bytes.length - 128
  let end = bytes.length
  if (tail >= 0 && text(bytes, tail, 3) === 'TAG') {
    bytes.fill(0, tail + 3, bytes.length)
    blanked.push('ID3v1')
    end = tail
  }
  blankApeTag(bytes, end, blanked)
}

/**
 * An APEv2 tag at the end (before an ID3v1 tag, if any), as ffmpeg's ADTS muxer and some MP3
 * taggers write it: its items are zeroed and its header and footer say it holds none.
 */
function blankApeTag(bytes: Uint8Array, end: number, blanked: string[]): void {
  const footer = end - 32
  if (footer < 0 || text(bytes, footer, 8) !== 'APETAGEX') return
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const items = footer - (view.getUint32(footer + 12, true) - 32)
  if (items < 0 || items > footer) return
  bytes.fill(0, items, footer)
  view.setUint32(footer + 16, 0, true)
  const header = items - 32
  if (header >= 0 && text(bytes, header, 8) === 'APETAGEX') view.setUint32(header + 16, 0, true)
  blanked.push('APEv2')
}

// ---- Ogg (Opus, Vorbis) --------------------------------------------------------------------------------

/** Where each whole packet starting on this page lies in it (a packet carried on to the next page is `open`). */
function packetsOfPage(bytes: Uint8Array, offset: number, segments: number, data: number): { start: number, end: number, open: boolean }[] {
  const packets: { start: number, end: number, open: boolean }[] = []
  // A page may begin with the end of a packet from the page before: not one of ours to read.
  let skipping = (bytes[offset + 5]! & 0x01) === 1
  let start = data
  let position = data
  for (let i = 0; i < segments; i++) {
    const lacing = bytes[offset + 27 + i]!
    position += lacing
    if (lacing < 255) {
      if (!skipping) packets.push({ start, end: position, open: false })
      skipping = false
      start = position
    }
  }
  if (start < position && !skipping) packets.push({ start, end: position, open: true })
  return packets
}

/**
 * Empties the comment list of an Ogg recording in place, on the page that holds it, and writes the
 * page's checksum again: Opus's `OpusTags` (count 0, zero padding to the end of its page, which
 * RFC 7845 §5.2 allows) or Vorbis's comment header (count 0, its framing bit, zeros to the end of
 * the packet: the setup header that may follow on the page is left as it was). A comment list
 * carried on to the next page (a picture in the tags) cannot be emptied in place: unreadable.
 */
function blankOggComments(bytes: Uint8Array, blanked: string[]): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 0
  for (let pageIndex = 0; pageIndex < 4 && offset + 27 <= bytes.length; pageIndex++) {
    if (text(bytes, offset, 4) !== 'OggS') return false
    const segments = bytes[offset + 26]!
    const table = offset + 27
    if (table + segments > bytes.length) return false
    let dataLength = 0
    for (let i = 0; i < segments; i++) dataLength += bytes[table + i]!
    const data = table + segments
    const pageEnd = data + dataLength
    if (pageEnd > bytes.length) return false
    for (const packet of packetsOfPage(bytes, offset, segments, data)) {
      const opus = packet.end - packet.start >= 16 && text(bytes, packet.start, 8) === 'OpusTags'
      const vorbis = packet.end - packet.start >= 16 && bytes[packet.start] === 0x03 && text(bytes, packet.start + 1, 6) === 'vorbis'
      if (!opus && !vorbis) continue
      if (packet.open) return false
      const vendorAt = packet.start + (opus ? 8 : 7)
      const count = vendorAt + 4 + view.getUint32(vendorAt, true)
      if (count + (opus ? 4 : 5) > packet.end) return false
      if (opus) {
        bytes.fill(0, count, pageEnd)
      }
      else {
        bytes.fill(0, count, packet.end)
        bytes[count + 4] = 0x01
      }
      bytes.fill(0, offset + 22, offset + 26)
      view.setUint32(offset + 22, oggCrc(bytes.subarray(offset, pageEnd)), true)
      blanked.push(opus ? 'OpusTags' : 'VorbisComment')
      return true
    }
    offset = pageEnd
  }
  return true
}

// ---- One call -------------------------------------------------------------------------------------

/**
 * Blanks the tags of an audio file of the declared type, in a copy of its bytes. `not-audio`: a
 * video track inside; `unreadable`: the container's structure cannot be followed (confirm refuses
 * both, as it refuses a video with no readable box structure).
 */
export async function cleanAudioTags(original: Uint8Array, contentType: string): Promise<AudioClean> {
  const family = audioFamilyOf(contentType)
  if (!family) return { ok: false, reason: 'unreadable' }
  const bytes = new Uint8Array(original)
  const blanked: string[] = []
  let durationSec: number | null = null
  if (family === 'mp4') {
    const walk: Mp4Walk = { blanked, video: false, boxes: 0 }
    if (!walkMp4(bytes, 0, bytes.length, '', walk)) return { ok: false, reason: 'unreadable' }
    if (walk.video) return { ok: false, reason: 'not-audio' }
    durationSec = await readMp4Duration(async (start, end) => original.subarray(start, end), original.length)
  }
  else if (family === 'webm') {
    const walk: MatroskaWalk = { blanked, video: false, elements: 0 }
    try {
      walkMatroska(bytes, walk)
    }
    catch {
      return { ok: false, reason: 'unreadable' }
    }
    if (walk.video) return { ok: false, reason: 'not-audio' }
    durationSec = await readMatroskaDuration(async (start, end) => original.subarray(start, end), original.length)
  }
  else if (family === 'ogg') {
    const stream = readOggStream(original)
    if (!stream.ok) return stream
    durationSec = stream.durationSec
    if (!blankOggComments(bytes, blanked)) return { ok: false, reason: 'unreadable' }
  }
  else {
    const stream = family === 'mpeg' ? readMpegAudio(original) : readAdtsAudio(original)
    if (!stream.ok) return { ok: false, reason: 'unreadable' }
    durationSec = stream.durationSec
    blankId3(bytes, blanked)
  }
  return { ok: true, bytes, changed: blanked.length > 0, blanked, durationSec }
}
