import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { and, eq } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import type { DisplayCopyMaker, VideoDisplay } from '#shared/enums'
import { needsDisplayCopy, type VideoCodec } from '#shared/media/video-codec'
import { containerOfContentType, type VideoContainer } from '#shared/media/video-location'
import { useDb } from '../db'
import { deleteObjectOrRetryLater } from '../storage/deletions'
import { displayCopyKeyOf } from '../storage/keys'
import { StorageUnavailableError } from '../storage/media-store'
import { useMediaStore } from '../storage/use-media-store'
import { copyArguments, HDR_TRANSFERS, inputArguments } from './copy-arguments'
import { FfmpegFailed, ffmpegPath, ffprobePath, runNiced } from './ffmpeg'

/*
 * A video whose codec not every browser plays (an iPhone's HEVC on Chromium for Linux, most TVs)
 * gets an H.264/AAC copy that the gallery, the viewer, downloads and the projector use; the
 * original stays for the couple's export. Made here, one at a time, when this server has ffmpeg.
 */

/**
 * Who makes copies for this server's uploads: init tells the phone. Without ffmpeg, the phone that
 * sent the video, where its browser can (phone-copy.ts); one that cannot sends none.
 */
export function displayCopyMaker(): DisplayCopyMaker {
  return ffmpegPath() ? 'server' : 'phone'
}

/**
 * What a video's public address will play, decided at confirm from the codec its container names
 * (`poster-only` becomes `copy` when the phone's copy passes its check).
 */
export function displayAtConfirm(codec: VideoCodec | null): VideoDisplay {
  if (!needsDisplayCopy(codec)) return 'original'
  return displayCopyMaker() === 'server' ? 'pending' : 'poster-only'
}

/** A transcode stopped after this (plus four times the video's length): a stuck ffmpeg must not hold the queue. */
const TIME_LIMIT_BASE_MS = 120_000

async function isHdr(input: string, container: VideoContainer, timeLimitMs: number): Promise<boolean> {
  const ffprobe = ffprobePath()
  if (!ffprobe) return false
  const transfer = await runNiced(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=color_transfer', '-of', 'csv=p=0', ...inputArguments(input, container)], timeLimitMs)
    .catch(() => '')
  return HDR_TRANSFERS.has(transfer.trim())
}

/**
 * Makes the copy from the stored original in a scratch folder (removed afterwards) and stores it
 * at `key` streamed from there: a long video's copy is tens of megabytes, never held in memory.
 * False when called off meanwhile (nothing stored then).
 */
async function transcodeInto(key: string, row: UploadRow, ffmpeg: string, signal: AbortSignal): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'display-copy-'))
  try {
    const input = join(dir, 'original')
    const output = join(dir, 'copy.mp4')
    const container = containerOfContentType(row.contentType)
    await pipeline(await useMediaStore().read(row.storageKey), createWriteStream(input))
    const timeLimitMs = TIME_LIMIT_BASE_MS + 4000 * (row.durationSec ?? 60)
    await runNiced(ffmpeg, copyArguments(input, output, { hdr: await isHdr(input, container, timeLimitMs), container }), timeLimitMs, signal)
    if (signal.aborted) return false
    await useMediaStore().putFile(key, output, 'video/mp4')
    return true
  }
  finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Makes the copy of a video waiting for one, and records it: `copy`, or `poster-only` when ffmpeg
 * fails on it (a file it cannot decode, the time limit). Storage being down leaves it waiting, for
 * the sweeper to try again. A record deleted meanwhile leaves no copy behind.
 */
async function makeDisplayCopy(id: string, signal: AbortSignal): Promise<void> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row || !row.confirmedAt || row.display !== 'pending') return
  const ffmpeg = ffmpegPath()
  let key: string | null = null
  if (ffmpeg) {
    try {
      key = displayCopyKeyOf(row)
      if (!(await transcodeInto(key, row, ffmpeg, signal))) return
    }
    catch (error) {
      if (error instanceof StorageUnavailableError || signal.aborted) throw error
      console.warn(`[display-copy] ${id}: no copy (${error instanceof FfmpegFailed ? error.message : String(error)}), shown with its poster`)
      key = null
    }
  }
  const [updated] = await useDb().update(uploads)
    .set({ display: key ? 'copy' : 'poster-only', displayCopyKey: key, derivedAt: new Date() })
    .where(and(eq(uploads.id, id), eq(uploads.display, 'pending')))
    .returning({ id: uploads.id })
  if (!updated && key) await deleteObjectOrRetryLater(key)
}

/** One copy at a time: each takes ENCODE_THREADS cores for as long as the video plays or more. */
const queued = new Map<string, { finished: Promise<void>, stop: AbortController }>()
let tail: Promise<void> = Promise.resolve()
let makingNow: string | null = null

/** Queues the copy of video `id` (once, however often asked); settles when it is made or given up. */
export function queueDisplayCopy(id: string): Promise<void> {
  const known = queued.get(id)
  if (known) return known.finished
  const stop = new AbortController()
  const finished = tail.then(async () => {
    if (stop.signal.aborted) return
    makingNow = id
    try {
      await makeDisplayCopy(id, stop.signal)
    }
    catch (error) {
      if (!stop.signal.aborted) console.error(`[display-copy] ${id}:`, error instanceof Error ? error.message : error)
    }
    finally {
      makingNow = null
      queued.delete(id)
    }
  })
  tail = finished
  queued.set(id, { finished, stop })
  return finished
}

/**
 * For videos being deleted: their copies are called off (ffmpeg killed), and the one being made
 * now is waited for, so that nothing it writes outlives the removal of its keys. One still
 * queued never starts, and is not waited for behind the others.
 */
export async function settleDisplayCopies(ids: string[]): Promise<void> {
  for (const id of ids) queued.get(id)?.stop.abort()
  const now = makingNow !== null && ids.includes(makingNow) ? queued.get(makingNow) : undefined
  await now?.finished
}
