/**
 * The phone's side of stripping a video's location before it is sent: the same file with the
 * location-bearing boxes blanked, as a Blob stitched from slices of the original around the
 * patches. A Blob slice is a view, not a copy, so a 1 GB video is never copied in memory, and the
 * result has the original's exact size (the upload's signed length and part sizes stay right).
 */
import { blobReader } from './mp4-duration'
import { containerOfContentType, scanVideoLocation, type BytePatch, type LocationScanFailure, type LocationScanOptions } from './video-location'

/** The file with `patches` written over it, same size; the file itself when there is nothing to patch. */
export function patchedBlob(file: Blob, patches: readonly BytePatch[], type = file.type): Blob {
  if (!patches.length) return file
  const parts: BlobPart[] = []
  let offset = 0
  for (const patch of [...patches].sort((a, b) => a.offset - b.offset)) {
    if (patch.offset < offset || patch.offset + patch.bytes.length > file.size) throw new RangeError('patch outside the file or overlapping another')
    if (patch.offset > offset) parts.push(file.slice(offset, patch.offset))
    parts.push(patch.bytes as Uint8Array<ArrayBuffer>)
    offset = patch.offset + patch.bytes.length
  }
  if (offset < file.size) parts.push(file.slice(offset))
  return new Blob(parts, { type })
}

export type VideoWithoutLocation
  = | { ok: true, blob: Blob, removed: string[] }
    | { ok: false, reason: LocationScanFailure }

/**
 * What the upload queue sends in place of a picked video: `blob` has the same size and type as
 * `file` and carries no location (it is `file` itself when there was none). When the file cannot
 * be read (`ok: false`), the queue sends it as it is and lets confirm decide: the server scans
 * every video again and refuses one without a readable structure.
 */
export async function withoutVideoLocation(file: Blob, contentType: string, options: LocationScanOptions = {}): Promise<VideoWithoutLocation> {
  const scan = await scanVideoLocation(blobReader(file), file.size, { container: containerOfContentType(contentType), ...options })
  if (!scan.ok) return scan
  return { ok: true, blob: patchedBlob(file, scan.patches, contentType), removed: scan.removed }
}
