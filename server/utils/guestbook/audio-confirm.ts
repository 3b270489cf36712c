import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { cleanAudioTags, audioFamilyOf } from '#shared/media/audio-tags'
import { scanVideoLocation } from '#shared/media/video-location'
import { DURATION_SLACK_SEC } from '../uploads/video-duration'

/** A spoken message is short: its bytes are read whole at confirm (init refuses larger ones). */
export const AUDIO_MAX_BYTES = 50 * 1024 * 1024

/**
 * Confirm's step for a spoken guestbook message, on the bytes already at their served key: its
 * tags (title, comment…) and any recorded position are blanked in place (same length, sound
 * untouched), and its duration is read from the bytes (shared/media/audio-tags.ts says how, for
 * each container): more than a second beyond the event's limit, the upload goes and the guest hears
 * 400 DURATION_TOO_LONG. Answers why the bytes cannot be vouched for (confirm refuses them, 422),
 * or, once they are clean, the length to keep (the declared one where the container states none).
 */
export async function cleanServedAudio(row: UploadRow, size: number): Promise<{ problem: string } | { durationSec: number | null }> {
  const store = useMediaStore()
  const original = new Uint8Array(await store.readRange(row.storageKey, 0, size - 1))
  const cleaned = await cleanAudioTags(original, row.contentType)
  if (!cleaned.ok) return { problem: cleaned.reason }
  const { maxAudioDurationSec } = await getEventSettings()
  if (cleaned.durationSec !== null && cleaned.durationSec > maxAudioDurationSec + DURATION_SLACK_SEC) {
    await discardUpload(row)
    throw apiError(400, ErrorCode.DURATION_TOO_LONG, 'Audio too long', { limit: maxAudioDurationSec, durationSec: cleaned.durationSec })
  }
  const { bytes } = cleaned
  let changed = cleaned.changed
  const family = audioFamilyOf(row.contentType)
  if (family === 'mp4' || family === 'webm') {
    const location = await scanVideoLocation(async (start, end) => bytes.subarray(start, end), bytes.length, { container: family === 'mp4' ? 'mp4' : 'matroska' })
    if (!location.ok) return { problem: location.reason }
    for (const patch of location.patches) bytes.set(patch.bytes, patch.offset)
    changed ||= location.patches.length > 0
  }
  if (changed) await store.put(row.storageKey, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), row.contentType)
  return { durationSec: cleaned.durationSec ?? row.durationSec }
}
