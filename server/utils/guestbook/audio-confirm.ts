import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { cleanAudioTags, audioFamilyOf } from '#shared/media/audio-tags'
import { scanVideoLocation } from '#shared/media/video-location'

/** A spoken message is short: its bytes are read whole at confirm (init refuses larger ones). */
export const AUDIO_MAX_BYTES = 50 * 1024 * 1024
/** Containers round their duration up a little (padding, the last frame): a second of slack. */
const DURATION_SLACK_SEC = 1

/**
 * Confirm's step for a spoken guestbook message, on the bytes already at their served key: its
 * tags (title, comment…) and any recorded position are blanked in place (same length, sound
 * untouched), and its duration is checked again where the container says it. Answers why the
 * bytes cannot be vouched for (confirm refuses them, 422), or null once they are clean.
 */
export async function cleanServedAudio(row: UploadRow, size: number): Promise<string | null> {
  const store = useMediaStore()
  const original = new Uint8Array(await store.readRange(row.storageKey, 0, size - 1))
  const cleaned = await cleanAudioTags(original, row.contentType)
  if (!cleaned.ok) return cleaned.reason
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
    if (!location.ok) return location.reason
    for (const patch of location.patches) bytes.set(patch.bytes, patch.offset)
    changed ||= location.patches.length > 0
  }
  if (changed) await store.put(row.storageKey, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), row.contentType)
  return null
}
