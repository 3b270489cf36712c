import { checkMediaFile as checkAgainstRules, readDurationFromHeader, type EventLimits, type MediaCheck } from '#shared/media/checks'
import type { Messages } from '#shared/messages/pt-BR'
import { withDetachedVideo } from './detached-video'

const METADATA_TIMEOUT_MS = 8000

/** Duration as the browser's own video element reports it; null when it cannot read the file. */
function durationFromVideoElement(file: Blob): Promise<number | null> {
  return withDetachedVideo<number>(file, METADATA_TIMEOUT_MS, (video, finish) => {
    const found = (duration: number) => finish(Number.isFinite(duration) && duration > 0 ? duration : null)
    video.preload = 'metadata'
    video.onloadedmetadata = () => {
      if (Number.isFinite(video.duration)) return found(video.duration)
      // Recorded WebM often has no duration in its header: seeking far makes the browser find it.
      video.ondurationchange = () => {
        if (Number.isFinite(video.duration)) found(video.duration)
      }
      video.currentTime = Number.MAX_SAFE_INTEGER
    }
  })
}

/**
 * A video's duration in seconds: first from a <video> element's metadata, then, for MP4 and
 * QuickTime files this browser cannot decode, from the container's own header.
 */
export async function readVideoDuration(file: Blob): Promise<number | null> {
  const fromElement = typeof document === 'undefined' ? null : await durationFromVideoElement(file)
  return fromElement ?? readDurationFromHeader(file)
}

/** Checks a picked file against the event's limits, reading video durations the browser's way. */
export function checkMediaFile(file: File, limits: EventLimits, t: Messages): Promise<MediaCheck> {
  return checkAgainstRules(file, limits, readVideoDuration, t)
}
