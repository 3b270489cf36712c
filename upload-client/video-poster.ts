import { POSTER_MAX_BYTES } from '#shared/limits'
import { POSTER_MAX_WIDTH } from '#shared/media/poster'
import { stripIccProfile } from '#shared/media/public-image'
import type { PosterUploadResponse } from '#shared/schemas/upload'
import { sendBestEffort } from './best-effort'
import { withDetachedVideo } from './detached-video'
import { postJson, putBlob } from './transport'

/**
 * A video's poster frame: drawn in the guest's browser (the server never decodes videos) and sent
 * before the confirm, so the gallery and the slideshow show a picture of the video instead of a
 * black tile. Strictly best effort: every failure here ends in "no poster", never in a failed
 * or delayed upload beyond a few seconds.
 */

const POSTER_QUALITY = 0.8
/** How long a frame may take to decode before the poster is given up. */
const FRAME_TIMEOUT_MS = 8000
/** Asking for the poster's URL and sending it, after the video's own bytes are on the server. */
const SEND_TIMEOUT_MS = 15_000

/**
 * Opens a video file in a detached <video>, seeks to `at(duration)` and hands the element to
 * `draw` once that frame is ready; null when the browser cannot decode the file in time.
 */
export function withVideoFrame<T>(file: Blob, at: (durationSec: number) => number, draw: (video: HTMLVideoElement) => Promise<T | null>): Promise<T | null> {
  return withDetachedVideo<T>(file, FRAME_TIMEOUT_MS, (video, finish) => {
    video.playsInline = true
    video.preload = 'auto'
    video.onloadeddata = () => {
      // Infinity for a recorded WebM without a duration in its header: early frames still exist.
      const duration = Number.isNaN(video.duration) ? 0 : video.duration
      video.currentTime = Math.max(0, at(duration))
    }
    video.onseeked = () => {
      draw(video).then(finish, () => finish(null))
    }
  })
}

/** About half a second in (past a fade from black), or a tenth of a very short clip. */
export function posterTime(durationSec: number): number {
  return durationSec > 0 ? Math.min(0.5, durationSec * 0.1) : 0
}

/** The poster frame of a video file as a JPEG at most POSTER_MAX_WIDTH wide; null when none could be drawn. */
export function captureVideoPoster(file: Blob): Promise<Blob | null> {
  return withVideoFrame<Blob>(file, posterTime, (video) => {
    const { videoWidth, videoHeight } = video
    if (!videoWidth || !videoHeight) return Promise.resolve(null)
    const scale = Math.min(1, POSTER_MAX_WIDTH / videoWidth)
    const canvas = document.createElement('canvas')
    canvas.width = Math.round(videoWidth * scale)
    canvas.height = Math.max(1, Math.round(videoHeight * scale))
    const context = canvas.getContext('2d')
    if (!context) return Promise.resolve(null)
    context.drawImage(video, 0, 0, canvas.width, canvas.height)
    return new Promise<Blob | null>(resolve => canvas.toBlob(resolve, 'image/jpeg', POSTER_QUALITY)).then(withoutIccProfile)
  }).catch(() => null)
}

/**
 * The poster without the sRGB profile the canvas tags it with: the server refuses a poster that
 * carries any metadata segment (shared/media/poster.ts), and the picture is the same untagged.
 */
async function withoutIccProfile(blob: Blob | null): Promise<Blob | null> {
  if (!blob || blob.size === 0) return null
  const bytes = stripIccProfile(new Uint8Array(await blob.arrayBuffer()))
  return bytes.length <= POSTER_MAX_BYTES ? new Blob([bytes as BlobPart], { type: 'image/jpeg' }) : null
}

/**
 * Sends a captured poster for an upload not yet confirmed: asks the server for a signed URL and
 * PUTs the JPEG there. Answers whether it arrived; never throws, and gives up after
 * SEND_TIMEOUT_MS or when `signal` (the guest cancelling the file) aborts.
 */
export function sendVideoPoster(uploadId: string, poster: Promise<Blob | null>, signal: AbortSignal): Promise<boolean> {
  // No poster: the gallery shows a drawn placeholder instead (never the video file in a tile).
  return sendBestEffort(poster, signal, SEND_TIMEOUT_MS, async (blob, sending) => {
    const target = await postJson<PosterUploadResponse>(`/api/uploads/${encodeURIComponent(uploadId)}/poster`, { contentType: 'image/jpeg', size: blob.size }, sending)
    await putBlob(target.upload.url, blob, target.upload.headers, () => undefined, sending)
  })
}
