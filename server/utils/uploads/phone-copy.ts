import { fileTypeFromBuffer } from 'file-type'
import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { SNIFF_BYTES } from '#shared/limits'
import { PHONE_COPY_DURATION_SLACK_SEC, phoneCopyMaxBytes, type PhoneCopyRefusal } from '#shared/media/phone-copy'
import type { PosterUploadResponse } from '#shared/schemas/upload'
import { useConfig } from '../config'
import { apiError } from '../http/errors'
import { deleteObjectOrRetryLater } from '../storage/deletions'
import { displayCopyKeyOf, stagedKeyOf } from '../storage/keys'
import type { Promotion } from '../storage/media-store'
import { useMediaStore } from '../storage/use-media-store'
import { displayCopyMaker } from './display-copy'
import { findUpload } from './find'

/*
 * A server without ffmpeg lets the phone that sent a video make its display copy. It is sent like
 * the poster, before the confirm, to a staging key nothing serves; confirm moves it out and checks
 * its structure (MP4, H.264, the original's length, a 720p copy's size) before it is served, and a
 * copy that fails leaves nothing stored: the video is then shown with its poster.
 */

/** A signed PUT for the phone's copy of a video not yet confirmed, on a server that makes none itself. */
export async function signPhoneCopyUpload(id: string, size: number): Promise<PosterUploadResponse> {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (row.kind !== 'video') throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'Only videos have display copies')
  if (displayCopyMaker() !== 'phone') throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'This server makes display copies itself')
  const limit = phoneCopyMaxBytes(row.durationSec ?? 0)
  if (size > limit) throw apiError(413, ErrorCode.FILE_TOO_LARGE, 'Display copy too large', { limit })
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const { url, headers } = await useMediaStore().presignPut(stagedKeyOf(displayCopyKeyOf(row)), { contentType: 'video/mp4', contentLength: size, expiresIn: ttl })
  return { id, expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), upload: { type: 'single' as const, method: 'PUT' as const, url, headers } }
}

/** What confirm makes of the phone's copy: none sent (null), accepted at its key, or refused and why. */
export type PhoneCopyOutcome = { accepted: true, key: string } | { accepted: false, refusal: PhoneCopyRefusal }

/** The first reason to refuse the copy now served at `key`, or null when it passes. */
async function checkServedCopy(key: string, promoted: Extract<Promotion, { found: true }>, originalDurationSec: number | null): Promise<PhoneCopyRefusal | null> {
  // A driver that scans in the move (S3) moves nothing it cannot read: then only staging holds it.
  if (promoted.location && !promoted.location.ok) return 'container'
  const store = useMediaStore()
  const object = await store.head(key)
  if (!object || object.size === 0) return 'missing'
  if (object.size > phoneCopyMaxBytes(originalDurationSec ?? 0)) return 'too-large'
  const sniffed = await fileTypeFromBuffer(await store.readRange(key, 0, SNIFF_BYTES - 1))
  if (sniffed?.mime !== 'video/mp4') return 'container'
  // The location scan reads the boxes (and blanks a position a forged copy may carry), its length and codec with it.
  const scanned = promoted.location ?? await store.blankVideoLocation(key, 'video/mp4', object.size)
  if (!scanned.ok) return 'container'
  if (scanned.videoCodec !== 'h264') return 'codec'
  if (scanned.durationSec == null || originalDurationSec == null) return 'duration'
  return Math.abs(scanned.durationSec - originalDurationSec) > PHONE_COPY_DURATION_SLACK_SEC ? 'duration' : null
}

/**
 * At confirm of a video that needs a display copy on a server without ffmpeg: the phone's copy,
 * if it sent one, moved out of staging (its signed URL can then only write to staging again) and
 * checked where it is served. A refused copy is deleted, staged and served.
 */
export async function acceptPhoneCopy(row: UploadRow, originalDurationSec: number | null): Promise<PhoneCopyOutcome | null> {
  const key = displayCopyKeyOf(row)
  const promoted = await useMediaStore().promote(key, { contentType: 'video/mp4' })
  if (!promoted.found) return null
  const refusal = await checkServedCopy(key, promoted, originalDurationSec)
  if (refusal) {
    await deleteObjectOrRetryLater(key)
    await deleteObjectOrRetryLater(stagedKeyOf(key))
    console.warn(`[phone-copy] ${row.id}: the phone's display copy was refused (${refusal}), shown with its poster`)
    return { accepted: false, refusal }
  }
  await useMediaStore().persist(key)
  return { accepted: true, key }
}
