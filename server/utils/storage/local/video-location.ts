import { open, type FileHandle } from 'node:fs/promises'
import { containerOfContentType, scanVideoLocation, type BytePatch, type ByteReader, type LocationScanFailure, type LocationScanOptions } from '#shared/media/video-location'
import type { VideoCodec } from '#shared/media/video-codec'

/**
 * Blanking a stored video's location on the local disk: each patch written at its offset, then one
 * fsync, so confirm answers only once the clean bytes are durable. The file is never read whole.
 *
 * Running it again is harmless (a blanked box reads as `free`, a renamed key's leftover value is
 * still found), which is what a crash between two writes needs: confirm simply runs again.
 */

/** A reader over an open file, for `scanVideoLocation`. */
export function fileHandleReader(handle: FileHandle): ByteReader {
  return async (start, end) => {
    const bytes = new Uint8Array(Math.max(0, end - start))
    let filled = 0
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return bytes.subarray(0, filled)
  }
}

async function writeAll(handle: FileHandle, patches: readonly BytePatch[]): Promise<void> {
  const { size } = await handle.stat()
  for (const patch of patches) {
    if (patch.offset < 0 || patch.offset + patch.bytes.length > size) throw new RangeError('patch outside the file')
  }
  for (const patch of patches) {
    let written = 0
    while (written < patch.bytes.length) {
      const result = await handle.write(patch.bytes, written, patch.bytes.length - written, patch.offset + written)
      written += result.bytesWritten
    }
  }
  await handle.sync()
}

/** Writes the patches over the file at `path`, in place, and syncs it to the disk. */
export async function writePatchesInPlace(path: string, patches: readonly BytePatch[]): Promise<void> {
  if (!patches.length) return
  const handle = await open(path, 'r+')
  try {
    await writeAll(handle, patches)
  }
  finally {
    await handle.close()
  }
}

export type LocalLocationStrip
  = | { ok: true, removed: string[], patches: BytePatch[], durationSec: number | null, videoCodec: VideoCodec | null }
    | { ok: false, reason: LocationScanFailure }

/**
 * Confirm's one call on the local driver: scans the video at `path` and blanks what carries a
 * location, in place and synced, and reads how long it plays. When it cannot be read (`ok: false`) the file is left untouched:
 * the caller refuses the upload.
 */
export async function stripVideoLocationInFile(path: string, contentType: string, options: LocationScanOptions = {}): Promise<LocalLocationStrip> {
  const handle = await open(path, 'r+')
  try {
    const { size } = await handle.stat()
    const scan = await scanVideoLocation(fileHandleReader(handle), size, { container: containerOfContentType(contentType), measureDuration: true, ...options })
    if (!scan.ok) return scan
    if (scan.patches.length) await writeAll(handle, scan.patches)
    return { ok: true, removed: scan.removed, patches: scan.patches, durationSec: scan.durationSec ?? null, videoCodec: scan.videoCodec ?? null }
  }
  finally {
    await handle.close()
  }
}
