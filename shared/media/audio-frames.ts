/**
 * MP3 and ADTS (raw AAC) are bare frames, one after another, each header giving the length of its
 * frame: the only proof that bytes are such a stream, and the only measure of how long it plays.
 * Four sync bits and a few header bits are easy to put before an HTML page or an SVG; three
 * frames, each beginning exactly where the one before says it ends, are not. So a stream is
 * accepted when, after its ID3v2 tag, at least three consecutive frames chain (or every frame of a
 * shorter file chains to its end), and its duration is the sum of the frames' samples over the
 * whole file: a player that loses the chain looks for the next frame, so a break is followed the
 * same way (the next spot where three frames chain) rather than trusted as the end. An MP3's
 * Xing/Info or VBRI header states a frame count too: the longer of the two answers counts.
 *
 * Pure, over bytes in memory (a spoken message is read whole at confirm, at most 50 MiB).
 */

export type FrameStream
  = | { ok: true, durationSec: number, frames: number }
    | { ok: false }

/** Consecutive frames that make a stream (fewer only when the file ends first). */
export const FRAMES_TO_ACCEPT = 3

interface Frame { length: number, samples: number, sampleRate: number, key: number }

type FrameReader = (bytes: Uint8Array, at: number) => Frame | null

// ---- MPEG audio (MP3, and MPEG-1/2 layers I and II) ----------------------------------------------

const MPEG_BITRATES_KBPS: Record<string, readonly number[]> = {
  // [version 1 | 2 (2.5 alike)][layer 1..3], index 1..14
  '1-1': [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
const MPEG_SAMPLE_RATES: Record<number, readonly number[]> = {
  3: [44100, 48000, 32000], // MPEG-1 (version bits 11)
  2: [22050, 24000, 16000], // MPEG-2 (10)
  0: [11025, 12000, 8000], // MPEG-2.5 (00)
}

export const readMpegFrame: FrameReader = (bytes, at) => {
  if (at + 4 > bytes.length || bytes[at] !== 0xFF || (bytes[at + 1]! & 0xE0) !== 0xE0) return null
  const b1 = bytes[at + 1]!
  const b2 = bytes[at + 2]!
  const versionBits = (b1 >> 3) & 0x03
  const layerBits = (b1 >> 1) & 0x03
  const bitrateIndex = b2 >> 4
  const rateIndex = (b2 >> 2) & 0x03
  // Reserved version and layer, the "free" and "bad" bitrates, the reserved sample rate.
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null
  const layer = 4 - layerBits
  const version1 = versionBits === 3
  const kbps = MPEG_BITRATES_KBPS[`${version1 ? 1 : 2}-${layer}`]![bitrateIndex - 1]!
  const sampleRate = MPEG_SAMPLE_RATES[versionBits]![rateIndex]!
  const padding = (b2 >> 1) & 0x01
  const samples = layer === 1 ? 384 : layer === 3 && !version1 ? 576 : 1152
  const length = layer === 1
    ? (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4
    : Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding
  // Every frame of one stream shares its version, layer and sample rate.
  return { length, samples, sampleRate, key: (b1 & 0x1E) << 8 | (b2 & 0x0C) }
}

/** Frames an MP3's Xing/Info or VBRI header (in its first frame) says the stream holds, or null. */
function statedMpegFrames(bytes: Uint8Array, at: number, frame: Frame): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = at + frame.length
  const mono = (bytes[at + 3]! >> 6) === 3
  const version1 = ((bytes[at + 1]! >> 3) & 0x03) === 3
  const xing = at + 4 + (version1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
  const tag = (from: number) => from + 4 <= bytes.length ? String.fromCharCode(...bytes.subarray(from, from + 4)) : ''
  if ((tag(xing) === 'Xing' || tag(xing) === 'Info') && xing + 12 <= end && (view.getUint32(xing + 4) & 0x01)) {
    return view.getUint32(xing + 8)
  }
  const vbri = at + 4 + 32
  if (tag(vbri) === 'VBRI' && vbri + 18 <= end) return view.getUint32(vbri + 14)
  return null
}

// ---- ADTS (AAC) ------------------------------------------------------------------------------------

const ADTS_SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

export const readAdtsFrame: FrameReader = (bytes, at) => {
  if (at + 7 > bytes.length || bytes[at] !== 0xFF || (bytes[at + 1]! & 0xF6) !== 0xF0) return null
  const b2 = bytes[at + 2]!
  const rateIndex = (b2 >> 2) & 0x0F
  const sampleRate = ADTS_SAMPLE_RATES[rateIndex]
  if (!sampleRate) return null
  const headerLength = (bytes[at + 1]! & 0x01) ? 7 : 9
  const length = ((bytes[at + 3]! & 0x03) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5)
  if (length < headerLength) return null
  const blocks = (bytes[at + 6]! & 0x03) + 1
  return { length, samples: 1024 * blocks, sampleRate, key: (b2 & 0xFC) << 8 | (bytes[at + 1]! & 0x08) }
}

// ---- The walk ----------------------------------------------------------------------------------------

/** Where the audio begins: after an ID3v2 tag (its footer too, in version 4) and any zero padding. */
export function audioStart(bytes: Uint8Array): number {
  let at = 0
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    const size = ((bytes[6]! & 0x7F) << 21) | ((bytes[7]! & 0x7F) << 14) | ((bytes[8]! & 0x7F) << 7) | (bytes[9]! & 0x7F)
    at = 10 + size + ((bytes[5]! & 0x10) ? 10 : 0)
  }
  while (at < bytes.length && bytes[at] === 0) at++
  return at
}

/** Whether `count` frames of one stream chain from `at`, or every frame does up to the file's end. */
function chainsFrom(bytes: Uint8Array, at: number, read: FrameReader, count: number): boolean {
  const first = read(bytes, at)
  if (!first) return false
  let offset = at
  for (let i = 0; i < count; i++) {
    const frame = read(bytes, offset)
    if (!frame || frame.key !== first.key) return false
    offset += frame.length
    if (offset === bytes.length) return true
    if (offset > bytes.length) return false
  }
  return true
}

/** The next spot at or after `from` where a chain of frames begins, or -1. */
function resync(bytes: Uint8Array, from: number, read: FrameReader): number {
  for (let at = from; at + 4 <= bytes.length; at++) {
    if (bytes[at] === 0xFF && chainsFrom(bytes, at, read, FRAMES_TO_ACCEPT)) return at
  }
  return -1
}

function walkFrames(bytes: Uint8Array, read: FrameReader): { samples: number, sampleRate: number, frames: number, start: number, first: Frame } | null {
  const start = audioStart(bytes)
  if (!chainsFrom(bytes, start, read, FRAMES_TO_ACCEPT)) return null
  const first = read(bytes, start)!
  let samples = 0
  let frames = 0
  let offset = start
  while (offset < bytes.length) {
    const frame = read(bytes, offset)
    if (frame && frame.key === first.key && offset + frame.length <= bytes.length) {
      samples += frame.samples
      frames++
      offset += frame.length
      continue
    }
    // Not a frame where one should be: a trailing tag, junk, or a cut. Playback goes on at the
    // next chain of frames; so does the count.
    const next = resync(bytes, offset + 1, read)
    if (next < 0) break
    offset = next
  }
  return { samples, sampleRate: first.sampleRate, frames, start, first }
}

/** An MP3 (or MPEG layer I/II) stream: accepted or not, and how long it plays. */
export function readMpegAudio(bytes: Uint8Array): FrameStream {
  const walk = walkFrames(bytes, readMpegFrame)
  if (!walk) return { ok: false }
  const counted = walk.samples / walk.sampleRate
  const stated = statedMpegFrames(bytes, walk.start, walk.first)
  const fromHeader = stated === null ? 0 : (stated * walk.first.samples) / walk.sampleRate
  return { ok: true, durationSec: Math.max(counted, fromHeader), frames: walk.frames }
}

/** An ADTS (raw AAC) stream: accepted or not, and how long it plays. */
export function readAdtsAudio(bytes: Uint8Array): FrameStream {
  const walk = walkFrames(bytes, readAdtsFrame)
  if (!walk) return { ok: false }
  return { ok: true, durationSec: walk.samples / walk.sampleRate, frames: walk.frames }
}
