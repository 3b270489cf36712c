import type { EventSettingsRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'

/**
 * A spoken guestbook message at init: the event accepts them (`allowAudio`), its duration is
 * declared, and within `maxAudioDurationSec`. Confirm checks the duration again where the
 * bytes say it (shared/media/audio-tags.ts).
 */
export function assertAudioAcceptable(body: { size: number, durationSec?: number | null }, settings: Pick<EventSettingsRow, 'allowAudio' | 'maxAudioDurationSec'>): void {
  const { durationSec } = body
  if (!settings.allowAudio) throw apiError(400, ErrorCode.AUDIO_NOT_ALLOWED, 'Audio not allowed')
  // Read whole at confirm: a spoken message is never anywhere near this.
  if (body.size > AUDIO_MAX_BYTES) throw apiError(413, ErrorCode.FILE_TOO_LARGE, 'File too large', { limit: AUDIO_MAX_BYTES })
  if (durationSec == null) throw apiError(422, ErrorCode.DURATION_REQUIRED, 'Duration required')
  if (durationSec > settings.maxAudioDurationSec) {
    throw apiError(400, ErrorCode.DURATION_TOO_LONG, 'Audio too long', { limit: settings.maxAudioDurationSec })
  }
}
