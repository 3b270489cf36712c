/**
 * How long a Matroska/WebM file plays, read from two windows of it: its head (the `Info` element,
 * with `TimecodeScale` and `Duration`) and its tail (the last clusters). A browser's MediaRecorder
 * writes no `Duration` (it does not know it when it writes `Info`), and a `Duration` is only what
 * the writer claims: so the end of the last cluster in the tail is read too (its `Timecode` plus its
 * last block's offset and, when a `BlockGroup` gives one, that block's duration), and the longer of
 * the two is the file's duration.
 *
 * Reads (each one call of `read`, a ranged GET on S3): the first 256 KiB, then the last 1 MiB; when
 * no whole cluster lies in that tail, the last 4 MiB, then the last 16 MiB. At most 4 reads and
 * 21.25 MiB, whatever the file's size; a file the head covers whole is read once.
 */
import type { ByteReader } from './mp4-duration'
import { readElement, readFloat, readUint, type Element } from './ebml'

export const MATROSKA_HEAD_BYTES = 256 * 1024
export const MATROSKA_TAIL_WINDOWS = [1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024] as const

const ID = {
  header: 0x1A45DFA3, segment: 0x18538067, info: 0x1549A966, timecodeScale: 0x2AD7B1, duration: 0x4489,
  cluster: 0x1F43B675, timecode: 0xE7, simpleBlock: 0xA3, blockGroup: 0xA0, block: 0xA1, blockDuration: 0x9B,
} as const
/** What a cluster may hold besides its timecode and blocks (position, previous size, silent tracks, Void, CRC-32). */
const OTHER_CLUSTER_CHILDREN = new Set([0xA7, 0xAB, 0x5854, 0xEC, 0xBF, 0xAF])
const MAX_HEAD_ELEMENTS = 1000

interface Info { timecodeScale: number, durationTicks: number | null }

/** `Info` from the head: the Segment's children are walked up to the first cluster. */
function readInfo(head: Uint8Array): Info | null {
  const header = readElement(head, 0, head.length)
  if (!header || header.id !== ID.header) return null
  const segment = readElement(head, header.dataEnd, Number.MAX_SAFE_INTEGER)
  if (!segment || segment.id !== ID.segment) return null
  let offset = segment.dataStart
  for (let i = 0; i < MAX_HEAD_ELEMENTS && offset < head.length; i++) {
    const element = readElement(head, offset, Number.MAX_SAFE_INTEGER)
    if (!element || element.id === ID.cluster) return null
    if (element.id === ID.info) {
      if (element.dataEnd > head.length) return null
      const info: Info = { timecodeScale: 1_000_000, durationTicks: null }
      for (let at = element.dataStart; at < element.dataEnd;) {
        const child = readElement(head, at, element.dataEnd)
        if (!child) return null
        if (child.id === ID.timecodeScale) info.timecodeScale = readUint(head, child) || 1_000_000
        if (child.id === ID.duration) info.durationTicks = readFloat(head, child)
        at = child.dataEnd
      }
      return info
    }
    offset = element.dataEnd
  }
  return null
}

/** The tick at which a block (of a SimpleBlock or a Block) starts, relative to its cluster. */
function blockOffset(bytes: Uint8Array, element: Element): number | null {
  const first = bytes[element.dataStart]
  if (first === undefined || first === 0) return null
  const trackLength = Math.clz32(first) - 23
  const at = element.dataStart + trackLength
  if (at + 2 > element.dataEnd) return null
  return new DataView(bytes.buffer, bytes.byteOffset + at, 2).getInt16(0)
}

/**
 * The tick at which the cluster starting at `at` ends (its timecode plus its last block's offset,
 * plus that block's duration when given), or null when no readable cluster starts there. A cluster
 * cut by the end of the window (a recording stopped mid-cluster) counts up to where it is cut.
 */
function clusterEnd(bytes: Uint8Array, at: number): number | null {
  const cluster = readElement(bytes, at, Number.MAX_SAFE_INTEGER)
  if (!cluster || cluster.id !== ID.cluster) return null
  const end = Math.min(cluster.dataEnd, bytes.length)
  const timecode = readElement(bytes, cluster.dataStart, end)
  if (!timecode || timecode.id !== ID.timecode || timecode.dataEnd - timecode.dataStart > 8) return null
  const base = readUint(bytes, timecode)
  let last = 0
  let offset = timecode.dataEnd
  while (offset < end) {
    const child = readElement(bytes, offset, Number.MAX_SAFE_INTEGER)
    if (!child) break
    if (child.id === ID.simpleBlock) {
      if (child.dataEnd <= bytes.length) last = Math.max(last, blockOffset(bytes, child) ?? 0)
    }
    else if (child.id === ID.blockGroup) {
      let blockAt: number | null = null
      let duration = 0
      for (let inner = child.dataStart; inner < Math.min(child.dataEnd, bytes.length);) {
        const part = readElement(bytes, inner, child.dataEnd)
        if (!part) break
        if (part.id === ID.block) blockAt = blockOffset(bytes, part)
        if (part.id === ID.blockDuration) duration = readUint(bytes, part)
        inner = part.dataEnd
      }
      if (blockAt !== null) last = Math.max(last, blockAt + duration)
    }
    else if (!OTHER_CLUSTER_CHILDREN.has(child.id)) {
      // A cluster of unknown size ends where an element of the Segment begins; a known one cannot.
      if (!cluster.unknownSize) return null
      break
    }
    offset = child.dataEnd
  }
  return base + last
}

/** The latest cluster end among the clusters found in a tail window, or null. */
function latestClusterEnd(tail: Uint8Array): number | null {
  let latest: number | null = null
  for (let at = tail.length - 4; at >= 0; at--) {
    if (tail[at] !== 0x1F || tail[at + 1] !== 0x43 || tail[at + 2] !== 0xB6 || tail[at + 3] !== 0x75) continue
    const end = clusterEnd(tail, at)
    // Every cluster in the window counts, not just the last: one appended with an early timecode
    // must not hide the hours before it.
    if (end !== null) latest = Math.max(latest ?? 0, end)
  }
  return latest
}

/** Seconds, or null when the file is not Matroska or says nothing of its length. */
export async function readMatroskaDuration(read: ByteReader, size: number): Promise<number | null> {
  const head = await read(0, Math.min(size, MATROSKA_HEAD_BYTES))
  const info = readInfo(head)
  if (!info) return null
  let ticks = info.durationTicks !== null && Number.isFinite(info.durationTicks) && info.durationTicks > 0 ? info.durationTicks : null
  for (const window of MATROSKA_TAIL_WINDOWS) {
    const tail = size <= head.length ? head : await read(Math.max(0, size - window), size)
    const end = latestClusterEnd(tail)
    if (end !== null) {
      ticks = Math.max(ticks ?? 0, end)
      break
    }
    if (tail.length >= size) break
  }
  return ticks === null ? null : (ticks * info.timecodeScale) / 1e9
}
