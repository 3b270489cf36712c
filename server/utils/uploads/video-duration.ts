import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { getEventSettings } from '../event-settings'
import { apiError } from '../http/errors'
import { discardUpload } from './abort'

/** Containers round their duration up a little (padding, the last frame): a second of slack. */
export const DURATION_SLACK_SEC = 1

/**
 * Confirm's check of a video's length, as the location scan read it from the bytes (MP4 `mvhd`,
 * Matroska `Duration` and last cluster): the phone's `durationSec` only passed init. More than a
 * second beyond the event's limit, the upload goes (record and bytes) and the guest hears what init
 * would have said, 422 VIDEO_TOO_LONG, with the length found. Answers the length to keep: the one
 * read, or the declared one when the container states none.
 */
export async function checkVideoDuration(row: UploadRow, durationSec: number | null | undefined): Promise<number | null> {
  if (durationSec == null) return row.durationSec
  const { maxVideoDurationSec } = await getEventSettings()
  if (durationSec > maxVideoDurationSec + DURATION_SLACK_SEC) {
    await discardUpload(row)
    throw apiError(422, ErrorCode.VIDEO_TOO_LONG, 'Video too long', { limit: maxVideoDurationSec, durationSec })
  }
  return durationSec
}
