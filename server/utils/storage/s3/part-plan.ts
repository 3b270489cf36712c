import type { BytePatch } from '#shared/media/video-location'

/**
 * How to rebuild an object with a few patched ranges as a multipart upload: the untouched ranges
 * are copied inside the storage (`UploadPartCopy`), only the ranges around the patches are read
 * and uploaded. S3's rules shape it: every part but the last holds at least 5 MiB, a part at most
 * 5 GiB, at most 10,000 parts. So a patch is widened with its neighbours' bytes to 5 MiB, and
 * patches closer than 5 MiB share an uploaded range (the gap between them could not be a part).
 */

/** One part, bytes [start, end) of the source: copied in the storage or uploaded patched. */
export interface PlannedPart {
  kind: 'copy' | 'upload'
  start: number
  end: number
}

export interface PartLimits {
  /** Every part but the last is at least this long (S3: 5 MiB). */
  minPart: number
  /** A copied part is at most this long (S3 allows 5 GiB; shorter parts copy in parallel). */
  maxCopyPart: number
  /** An uploaded part is at most this long: it is held in memory while it is sent. */
  maxUploadPart: number
}

export const MiB = 1024 * 1024

export const S3_PART_LIMITS: PartLimits = { minPart: 5 * MiB, maxCopyPart: 256 * MiB, maxUploadPart: 16 * MiB }

const MAX_PARTS = 10_000

/** Sorted copies of the patches, checked to lie inside the object and not to overlap. */
export function checkedPatches(size: number, patches: readonly BytePatch[]): BytePatch[] {
  const sorted = [...patches].sort((a, b) => a.offset - b.offset)
  let end = 0
  for (const patch of sorted) {
    if (!Number.isSafeInteger(patch.offset) || patch.offset < end || patch.offset + patch.bytes.length > size) {
      throw new RangeError('patches must lie inside the object and not overlap')
    }
    end = patch.offset + patch.bytes.length
  }
  return sorted.filter(patch => patch.bytes.length > 0)
}

/** Splits [start, end) into `kind` parts of at most `max` bytes, as even as can be. */
function split(kind: PlannedPart['kind'], start: number, end: number, max: number): PlannedPart[] {
  const count = Math.max(1, Math.ceil((end - start) / max))
  const parts: PlannedPart[] = []
  for (let i = 0; i < count; i++) {
    parts.push({ kind, start: start + Math.floor(((end - start) * i) / count), end: start + Math.floor(((end - start) * (i + 1)) / count) })
  }
  return parts
}

/**
 * The parts, in order, that cover [0, size) exactly; every patch lies inside an uploaded part.
 * Needs `size` of at least `2 × minPart` for a plan to exist with any patch; smaller objects are
 * simply read, patched and put back.
 */
export function planPatchedCopy(size: number, patches: readonly BytePatch[], limits: PartLimits = S3_PART_LIMITS): PlannedPart[] {
  const { minPart } = limits
  // Splitting a range longer than `min` into pieces of at most `max` keeps every piece ≥ `min` only if max ≥ 2 min.
  if (limits.maxCopyPart < 2 * minPart || limits.maxUploadPart < 2 * minPart) throw new RangeError('part limits need max ≥ 2 × min')
  const sorted = checkedPatches(size, patches)
  const windows: { start: number, end: number }[] = []
  for (const patch of sorted) {
    const start = patch.offset
    const end = patch.offset + patch.bytes.length
    const last = windows.at(-1)
    const gapBefore = start - (last ? last.end : 0)
    if (last && gapBefore < minPart) {
      last.end = Math.max(last.end, end)
    }
    else {
      // A gap shorter than a part before the first window cannot be copied on its own: upload it.
      windows.push({ start: !last && gapBefore < minPart ? 0 : start, end })
    }
  }
  // Widen each window to a whole part, swallowing a following window or tail too short to stand alone.
  for (let i = 0; i < windows.length; i++) {
    const window = windows[i]!
    window.end = Math.min(size, Math.max(window.end, window.start + minPart))
    for (;;) {
      const next = windows[i + 1]
      if (next && next.start - window.end < minPart) {
        window.end = Math.max(window.end, next.end)
        windows.splice(i + 1, 1)
        continue
      }
      break
    }
  }
  const parts: PlannedPart[] = []
  let offset = 0
  for (const window of windows) {
    if (window.start > offset) parts.push(...split('copy', offset, window.start, limits.maxCopyPart))
    parts.push(...split('upload', window.start, window.end, limits.maxUploadPart))
    offset = window.end
  }
  if (offset < size) parts.push(...split('copy', offset, size, limits.maxCopyPart))
  if (parts.length > MAX_PARTS) throw new RangeError('too many parts for one multipart upload')
  return parts
}
