import { z } from './zod'
import type { DisplayCopyMaker, MediaKind, UploadStatus } from '#shared/enums'
import { FILE_NAME_MAX_LENGTH, MESSAGE_MAX_LENGTH, POSTER_MAX_BYTES } from '#shared/limits'
import { authorNameSchema, guestText, idSchema } from '#shared/schemas/common'
import { CLIENT_KEY_PATTERN } from '#shared/client-key'
import type { PhoneCopyRefusal } from '#shared/media/phone-copy'

/** A SHA-256 digest in hex, kept in lower case whatever case it came in. */
export const contentHashSchema = z.string().regex(/^[\da-f]{64}$/i).transform(hex => hex.toLowerCase())

/** A day of clock skew is allowed; a date further ahead is no camera's, and would misplace the upload. */
const TAKEN_AT_MAX_AHEAD_MS = 24 * 60 * 60 * 1000

/**
 * An instant with its offset (or Z): a local time without one names no instant, since the phone's
 * zone is not the server's, so it is refused rather than guessed.
 */
export const takenAtSchema = z.iso.datetime({ offset: true })
  .refine(iso => Date.parse(iso) <= Date.now() + TAKEN_AT_MAX_AHEAD_MS, { message: 'takenAt is more than a day ahead' })

export const initUploadSchema = z.strictObject({
  fileName: guestText(FILE_NAME_MAX_LENGTH, 1),
  // The type itself is checked by the handler so that an unaccepted one gets 415, not 400.
  contentType: z.string().min(1).max(255),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  durationSec: z.number().positive().max(1e7).nullish(),
  author: authorNameSchema.default(''),
  message: guestText(MESSAGE_MAX_LENGTH).default(''),
  challengeToken: z.string().max(4096).optional(),
  /** SHA-256 of the exact bytes the phone sends, hex: the same bytes already sent answer "duplicate" (docs/api.md). */
  hash: contentHashSchema.optional(),
  /** The phone's own random name for the file: init again with it answers the same upload (docs/api.md). */
  clientKey: z.string().regex(CLIENT_KEY_PATTERN).optional(),
  /** The moment of the day the guest chose (docs/api.md, "Moments"); unknown: 400. */
  momentId: idSchema.optional(),
  /** When it was taken, as the phone read it from the file (EXIF or the video's creation time). */
  takenAt: takenAtSchema.optional(),
  /** The couple's challenge it answers (docs/api.md, "Challenges"); inactive or unknown: 400. */
  challengeId: idSchema.optional(),
})

export type InitUploadBody = z.infer<typeof initUploadSchema>

/**
 * The words sent with an upload, corrected by the device that sent it (`PATCH /api/uploads/:id`):
 * the same fields, limits and cleaning as init's, each optional.
 */
export const guestUploadPatchSchema = z.strictObject({
  author: authorNameSchema,
  message: guestText(MESSAGE_MAX_LENGTH),
  /**
   * The edit's place among the device's edits of these words (increasing, e.g. its clock in ms):
   * an edit whose revision is not above the last applied one arrived late and changes nothing.
   */
  revision: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
}).partial()

export type GuestUploadPatch = z.infer<typeof guestUploadPatchSchema>
/** The words now stored, and the status they left the upload in (new words may send an approved upload back to the couple). */
export interface GuestUploadPatchResponse { id: string, status: UploadStatus, author: string, message: string }

export const refreshUploadSchema = z.strictObject({
  partNumbers: z.array(z.number().int().min(1).max(10000)).min(1).max(10000).optional(),
})

/** A poster frame for a video, sent before its confirm (a JPEG the upload page drew from the video). */
export const posterUploadSchema = z.strictObject({
  contentType: z.literal('image/jpeg'),
  size: z.number().int().positive().max(POSTER_MAX_BYTES),
})

/** A display copy made by the phone: an MP4 (its bound depends on the video's length, checked by the server). */
export const phoneCopyUploadSchema = z.strictObject({
  contentType: z.literal('video/mp4'),
  size: z.number().int().positive(),
})

/** Confirm and abort take no fields: `{}` or nothing. */
export const emptyBodySchema = z.strictObject({}).optional()

export type UploadTarget
  = | { type: 'single', method: 'PUT', url: string, headers: Record<string, string> }
    | { type: 'multipart', partSize: number, parts: { partNumber: number, size: number, url: string }[], headers?: Record<string, string> }

export interface InitUploadResponse {
  id: string
  status: 'pending'
  kind: MediaKind
  expiresAt: string
  upload: UploadTarget
  /**
   * Lets this device remove the upload for `undoWindowSec` after its confirm. Given once, here:
   * the server keeps only its hash.
   */
  undoToken: string
  undoWindowSec: number
  /**
   * Videos only: who makes the display copy should the video's codec need one (docs/api.md,
   * "Display copies"): `server` (the phone sends only the original), `phone`, or `none`.
   */
  displayCopy?: DisplayCopyMaker
}

/**
 * Init's answer (200) when the same bytes were already confirmed for this event: the earlier
 * upload, nothing new stored. Never its undo token (holding the same bytes must not let anyone
 * remove another guest's photo), nor its moderation status.
 */
export interface DuplicateUploadResponse {
  id: string
  kind: MediaKind
  duplicate: true
}

export type InitAnswer = InitUploadResponse | DuplicateUploadResponse

/** The answer to POST /api/uploads/:id/poster: where to PUT the JPEG, before the video's confirm. */
export interface PosterUploadResponse {
  id: string
  expiresAt: string
  upload: Extract<UploadTarget, { type: 'single' }>
}

export interface ConfirmUploadResponse {
  id: string
  status: UploadStatus
  /** Why the display copy the phone sent was refused (the video is shown with its poster); absent otherwise. */
  phoneCopyRefusal?: PhoneCopyRefusal
}
