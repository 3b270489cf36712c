/**
 * An Ogg file is pages from its first byte to its last, each carrying a CRC of itself: a reader
 * that finds one broken page resyncs, so "OggS" and a few bytes before an HTML page proves
 * nothing. A file is accepted when every page is whole, back to back to the end of the file, with a
 * valid checksum, and every logical stream in it is Opus or Vorbis audio. Its duration is the last
 * granule position of its first stream (the samples played so far when that page ends): for Opus
 * in 48 kHz samples minus the pre-skip of its `OpusHead`, for Vorbis over the sample rate of its
 * identification header.
 *
 * Pure, over bytes in memory: a spoken message is read whole at confirm (at most 50 MiB), and every
 * page is checked, each byte once.
 */

export type OggStream
  = | { ok: true, durationSec: number, pages: number }
    | { ok: false, reason: 'unreadable' | 'not-audio' }

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let i = 0; i < 256; i++) {
    let r = i << 24
    for (let j = 0; j < 8; j++) r = (r & 0x80000000) ? ((r << 1) ^ 0x04C11DB7) : (r << 1)
    table[i] = r >>> 0
  }
  return table
})()

/** The page checksum of Ogg (RFC 3533): CRC-32, polynomial 0x04C11DB7, over the page with its CRC field zero. */
export function oggCrc(page: Uint8Array, crcAt = -1): number {
  let crc = 0
  for (let i = 0; i < page.length; i++) {
    const byte = crcAt >= 0 && i >= crcAt && i < crcAt + 4 ? 0 : page[i]!
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) & 0xFF) ^ byte]!) >>> 0
  }
  return crc
}

const OGG_HEADER = 27
const CRC_AT = 22

interface Codec { rate: number, preSkip: number }

/** The codec of a stream's first packet (its BOS page's), or null when it is not Opus or Vorbis. */
function codecOf(packet: Uint8Array): Codec | null {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength)
  const tag = String.fromCharCode(...packet.subarray(0, 8))
  if (packet.length >= 19 && tag === 'OpusHead') return { rate: 48000, preSkip: view.getUint16(10, true) }
  if (packet.length >= 30 && tag.startsWith('\x01vorbis')) {
    const rate = view.getUint32(12, true)
    return rate > 0 ? { rate, preSkip: 0 } : null
  }
  return null
}

export function readOggStream(bytes: Uint8Array): OggStream {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 0
  let pages = 0
  let first: { serial: number, codec: Codec } | null = null
  let lastGranule = 0
  while (offset < bytes.length) {
    if (offset + OGG_HEADER > bytes.length) return { ok: false, reason: 'unreadable' }
    if (view.getUint32(offset) !== 0x4F676753 || bytes[offset + 4] !== 0) return { ok: false, reason: 'unreadable' }
    const segments = bytes[offset + 26]!
    const data = offset + OGG_HEADER + segments
    if (data > bytes.length) return { ok: false, reason: 'unreadable' }
    let length = 0
    for (let i = 0; i < segments; i++) length += bytes[offset + OGG_HEADER + i]!
    const end = data + length
    if (end > bytes.length) return { ok: false, reason: 'unreadable' }
    if (oggCrc(bytes.subarray(offset, end), CRC_AT) !== view.getUint32(offset + CRC_AT, true)) return { ok: false, reason: 'unreadable' }
    const serial = view.getUint32(offset + 14, true)
    if (bytes[offset + 5]! & 0x02) {
      // A stream begins: its first packet names its codec. Anything but Opus or Vorbis (Theora
      // video, a skeleton, FLAC) is not a spoken message this service plays.
      const codec = codecOf(bytes.subarray(data, end))
      if (!codec) return { ok: false, reason: 'not-audio' }
      first ??= { serial, codec }
    }
    if (!first) return { ok: false, reason: 'unreadable' }
    const low = view.getUint32(offset + 6, true)
    const high = view.getUint32(offset + 10, true)
    // All ones (-1): no packet ends on this page. (Read as two halves: no BigInt in the page's build.)
    if (serial === first.serial && !(low === 0xFFFFFFFF && high === 0xFFFFFFFF)) lastGranule = high * 2 ** 32 + low
    pages++
    offset = end
  }
  if (!first) return { ok: false, reason: 'unreadable' }
  const samples = lastGranule - first.codec.preSkip
  return { ok: true, durationSec: Math.max(0, samples) / first.codec.rate, pages }
}
