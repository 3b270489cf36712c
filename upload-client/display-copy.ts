import type { ConversionVideoOptions } from 'mediabunny'
import { PHONE_COPY_LONG_SIDE } from '#shared/media/phone-copy'
import type { PosterUploadResponse } from '#shared/schemas/upload'
import { sendBestEffort } from './best-effort'
import { postJson, putBlob } from './transport'

/*
 * A video's display copy made on the phone, for a server without ffmpeg (init's `displayCopy` is
 * then `phone`): the original decoded and encoded again as H.264 in an MP4 by the browser's
 * WebCodecs, through mediabunny, loaded only here, once a video is on its way (never in the upload
 * page's first load). Best effort like the poster: a browser that cannot (no WebCodecs, no H.264
 * encoder, audio it cannot pass through or encode) sends none, and the video is shown with its poster.
 */

/** Waiting for the copy once the original's bytes are on the server, and sending it (bench/RESULTS.md: 2-3 s per video second here). */
const SEND_TIMEOUT_MS = 10 * 60_000

/** Codecs every browser plays: the server serves such an original as it is and needs no copy. */
const PLAYABLE_EVERYWHERE = new Set(['avc', 'vp8'])

/** The copy's size: at most PHONE_COPY_LONG_SIDE on its long side, the original's proportions, even sides (4:2:0). */
export function copySize(width: number, height: number): { width: number, height: number } {
  const scale = Math.min(1, PHONE_COPY_LONG_SIDE / Math.max(width, height))
  const even = (side: number) => Math.max(2, Math.round((side * scale) / 2) * 2)
  return { width: even(width), height: even(height) }
}

/**
 * The H.264/MP4 copy of a video that needs one, or null: none needed (H.264, VP8), or none the
 * browser can make whole. A track the browser cannot decode or encode is not silently left out
 * (a copy that is sound only, or a silent one): then there is no copy at all.
 */
export async function makeDisplayCopy(file: Blob, signal: AbortSignal): Promise<Blob | null> {
  if (typeof VideoEncoder === 'undefined' || signal.aborted) return null
  const { ALL_FORMATS, BlobSource, BufferSource, BufferTarget, Conversion, Input, MP4, Mp4OutputFormat, Output } = await import('mediabunny')
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS })
  try {
    const track = await input.getPrimaryVideoTrack()
    const codec = await track?.getCodec()
    if (!track || !codec || PLAYABLE_EVERYWHERE.has(codec)) return null
    const target = new BufferTarget()
    const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target })
    // The rotation is drawn into the pictures, as the server's copy does: a copy needs none.
    const video: ConversionVideoOptions = { codec: 'avc', ...copySize(track.displayWidth, track.displayHeight), fit: 'contain', forceTranscode: true, allowTransformationMetadata: false }
    // AAC passes through unchanged; other sound is encoded to AAC where the browser can (Debian's Chromium cannot).
    // No tags: nothing of the original's metadata (a place, a device) reaches the copy.
    const conversion = await Conversion.init({ input, output, video, audio: { codec: 'aac' }, tags: {}, showWarnings: false })
    if (!conversion.isValid || conversion.discardedTracks.length > 0) return null
    const cancel = () => void conversion.cancel()
    signal.addEventListener('abort', cancel, { once: true })
    try {
      await conversion.execute()
    }
    finally {
      signal.removeEventListener('abort', cancel)
    }
    if (signal.aborted || !target.buffer) return null
    // Read back: an encoder that gave up may leave a file without pictures.
    const made = new Input({ source: new BufferSource(target.buffer), formats: [MP4] })
    try {
      if ((await (await made.getPrimaryVideoTrack())?.getCodec()) !== 'avc') return null
    }
    finally {
      made.dispose()
    }
    return new Blob([target.buffer], { type: 'video/mp4' })
  }
  catch {
    return null
  }
  finally {
    input.dispose()
  }
}

/**
 * The copy step of one queued video: `prepare` starts making the copy once init said the phone
 * makes it (while the original's bytes go), `send` asks for a signed PUT of its exact size and
 * sends it. `send` answers whether it arrived; never throws, gives up after SEND_TIMEOUT_MS or
 * when `signal` (the guest removing the file) aborts, and the encoder stops with it.
 */
export function displayCopyStep(item: { displayCopy?: string | null }, file: Blob, signal: AbortSignal): { prepare: () => void, send: (uploadId: string, sending: AbortSignal) => Promise<boolean> } {
  let made: Promise<Blob | null> | null = null
  const prepare = () => {
    if (item.displayCopy === 'phone') made ??= makeDisplayCopy(file, signal)
  }
  return {
    prepare,
    send(uploadId, sending) {
      prepare()
      if (!made) return Promise.resolve(false)
      return sendBestEffort(made, sending, SEND_TIMEOUT_MS, async (copy, put) => {
        const target = await postJson<PosterUploadResponse>(`/api/uploads/${encodeURIComponent(uploadId)}/display-copy`, { contentType: 'video/mp4', size: copy.size }, put)
        await putBlob(target.upload.url, copy, target.upload.headers, () => undefined, put)
      })
    },
  }
}
