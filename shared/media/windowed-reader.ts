/**
 * A ByteReader that turns the many small reads of a structure walk (a box header here, an element
 * header there) into few large ones: on S3 every read is a ranged GET, and a file of 99,000 tiny
 * boxes would otherwise cost 99,000 of them.
 *
 * - A file of at most `wholeFileBelow` bytes is fetched whole, in one read.
 * - Otherwise a read that misses fetches a window from where it starts: `window` bytes at first,
 *   doubling (up to `maxWindow`) while the walk moves forward by less than a few windows at a time
 *   (many boxes close together: a fragmented MP4, Matroska clusters), back to `window` after a long
 *   jump (past the media data, to a moov at the end) or a step back.
 * - The last two windows are kept, so memory stays under two `maxWindow`s whatever the file.
 * - At most `maxReads` reads reach the underlying reader (64 by default, and for a file over 1 GiB
 *   one per `maxWindow` of it, so that a dense structure read nearly whole still fits); the next
 *   one throws `ReadBudgetExceeded`.
 *
 * Pure (no Node or DOM API): the page and the server wrap their own reader in it.
 */
import type { ByteReader } from './mp4-duration'

export interface WindowedReaderOptions {
  window?: number
  maxWindow?: number
  wholeFileBelow?: number
  maxReads?: number
}

export const WINDOWED_READER_DEFAULTS = {
  window: 1024 * 1024,
  maxWindow: 16 * 1024 * 1024,
  wholeFileBelow: 4 * 1024 * 1024,
  maxReads: 64,
} as const

/** Thrown by a windowed reader asked for one read more than its budget. */
export class ReadBudgetExceeded extends Error {
  constructor(readonly reads: number) {
    super(`more than ${reads} reads`)
  }
}

export interface WindowedReader extends ByteReader {
  /** Reads made of the underlying reader so far. */
  readonly reads: number
}

/** A forward step shorter than this many windows counts as "close": the window grows. */
const CLOSE_STEPS = 4

export function windowedReader(read: ByteReader, size: number, options: WindowedReaderOptions = {}): WindowedReader {
  const base = options.window ?? WINDOWED_READER_DEFAULTS.window
  const max = Math.max(base, options.maxWindow ?? WINDOWED_READER_DEFAULTS.maxWindow)
  const whole = options.wholeFileBelow ?? WINDOWED_READER_DEFAULTS.wholeFileBelow
  const maxReads = options.maxReads ?? Math.max(WINDOWED_READER_DEFAULTS.maxReads, Math.ceil(size / max) + 8)
  /** The windows fetched last, newest first: `bytes` holds the file from `start`. */
  let cached: { start: number, bytes: Uint8Array }[] = []
  let current = base
  let lastEnd = Number.NEGATIVE_INFINITY
  let reads = 0

  const fetch = async (start: number, end: number): Promise<Uint8Array> => {
    if (reads >= maxReads) throw new ReadBudgetExceeded(maxReads)
    reads++
    const bytes = await read(start, end)
    cached = [{ start, bytes }, ...cached].slice(0, 2)
    lastEnd = start + bytes.length
    return bytes
  }

  const reader = async (start: number, end: number): Promise<Uint8Array> => {
    const stop = Math.min(end, size)
    if (stop <= start) return new Uint8Array(0)
    for (const window of cached) {
      // A window ends early only at the end of the file: what it lacks, the file lacks too.
      if (start >= window.start && (stop <= window.start + window.bytes.length || window.start + window.bytes.length >= size)) {
        return window.bytes.subarray(start - window.start, Math.min(stop, window.start + window.bytes.length) - window.start)
      }
    }
    if (size <= whole) {
      const bytes = await fetch(0, size)
      return bytes.subarray(start, Math.min(stop, bytes.length))
    }
    const step = start - lastEnd
    current = step >= 0 && step < CLOSE_STEPS * current ? Math.min(max, current * 2) : base
    // The first read of all, and a read after a jump, use the base window.
    if (!Number.isFinite(step)) current = base
    const bytes = await fetch(start, Math.min(size, start + Math.max(current, stop - start)))
    return bytes.subarray(0, Math.min(stop - start, bytes.length))
  }
  Object.defineProperty(reader, 'reads', { get: () => reads })
  return reader as WindowedReader
}
