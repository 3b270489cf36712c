/*
 * A display copy made on the guest's phone (when the server has no ffmpeg), and what the server
 * asks of it before serving it: the same copy the server would make, checked by structure only.
 */

/** Why confirm refused the phone's copy (the video is then shown with its poster). */
export const PHONE_COPY_REFUSALS = ['missing', 'too-large', 'container', 'codec', 'duration'] as const
export type PhoneCopyRefusal = typeof PHONE_COPY_REFUSALS[number]

/** How far the copy's length may be from the original's: encoders round the last frame or the audio's last packet. */
export const PHONE_COPY_DURATION_SLACK_SEC = 1

/** 8 Mbit/s: twice what a 720p H.264 copy at the phone's encoder defaults needs, with its sound. */
const BYTES_PER_SECOND = 1_000_000
/** The container's boxes and a first key frame, whatever the length. */
const BASE_BYTES = 4 * 1024 * 1024

/** The most bytes a copy of a `durationSec` video may hold: a copy that large is not a 720p copy. */
export function phoneCopyMaxBytes(durationSec: number): number {
  return BASE_BYTES + Math.ceil(Math.max(durationSec, 1) + PHONE_COPY_DURATION_SLACK_SEC) * BYTES_PER_SECOND
}

/** The long side of a copy, the server's too (server/utils/uploads/copy-arguments.ts): plenty for a phone or a projector. */
export const PHONE_COPY_LONG_SIDE = 1280
