import { ErrorCode } from '#shared/errors'
import { ApiError } from '~/app-utils/api-error'
import type { Messages } from '#shared/messages/pt-BR'
import type { QueueItem } from './item'

/**
 * Failures the upload page finds by itself, never sent by the server: they travel as an ApiError's
 * code beside the contract's codes.
 */
export const ClientCode = {
  /** The picked file is no longer in this browser (its storage was cleared): it cannot be sent. */
  FILE_GONE: 'FILE_GONE',
  /** Storage refused a signed URL (expired, say): renew it and send again, without counting a failure. */
  URL_REFUSED: 'URL_REFUSED',
} as const
export type ClientCode = typeof ClientCode[keyof typeof ClientCode]

/**
 * The words for a failure, and whether the file itself is the problem (trying again cannot help).
 * The words come from the caller: the page and the service worker each know their own texts, and
 * this room never reaches a composable.
 */
export function describeFailure(item: QueueItem, error: unknown, t: Messages): { words: string, final: boolean } {
  if (!(error instanceof ApiError)) return { words: t.refusal.failed, final: false }
  const limit = typeof error.data.limit === 'number' ? error.data.limit : null
  switch (error.code) {
    case ErrorCode.FILE_TOO_LARGE:
      return { words: t.refusal.tooLarge(item.size, limit ?? item.size), final: true }
    case ErrorCode.VIDEO_TOO_LONG:
      return { words: item.durationSec && limit ? t.refusal.tooLong(item.durationSec, limit) : t.refusal.tooLongNoDuration(limit ?? 0), final: true }
    case ErrorCode.VIDEOS_DISABLED:
      return { words: t.refusal.videosDisabled, final: true }
    case ErrorCode.DURATION_REQUIRED:
      return { words: t.refusal.durationUnreadable, final: true }
    case ErrorCode.UNSUPPORTED_TYPE:
      return { words: t.refusal.unsupported, final: true }
    case ErrorCode.CONTENT_MISMATCH:
      // A video with a timed GPS track is what it claims to be: say what is wrong with it.
      return { words: error.data.videoProblem === 'location-track' ? t.refusal.locationTrack : t.refusal.contentMismatch, final: true }
    case ClientCode.FILE_GONE:
      return { words: t.refusal.gone, final: true }
    case ErrorCode.RATE_LIMITED:
      return { words: t.refusal.rateLimited, final: false }
    default:
      return { words: t.refusal.failed, final: false }
  }
}
