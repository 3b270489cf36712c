import { z } from 'zod'
import type { MediaKind, UploadStatus } from '#shared/enums'
import { AUTHOR_MAX_LENGTH, FILE_NAME_MAX_LENGTH, MESSAGE_MAX_LENGTH, POSTER_MAX_BYTES } from '#shared/limits'
import { guestText } from '#shared/schemas/common'

export const initUploadSchema = z.strictObject({
  fileName: guestText(FILE_NAME_MAX_LENGTH, 1),
  // The type itself is checked by the handler so that an unaccepted one gets 415, not 400.
  contentType: z.string().min(1).max(255),
  size: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  durationSec: z.number().positive().max(1e7).nullish(),
  author: guestText(AUTHOR_MAX_LENGTH).default(''),
  message: guestText(MESSAGE_MAX_LENGTH).default(''),
  challengeToken: z.string().max(4096).optional(),
})

export type InitUploadBody = z.infer<typeof initUploadSchema>

export const refreshUploadSchema = z.strictObject({
  partNumbers: z.array(z.number().int().min(1).max(10000)).min(1).max(10000).optional(),
})

/** A poster frame for a video, sent before its confirm (a JPEG the upload page drew from the video). */
export const posterUploadSchema = z.strictObject({
  contentType: z.literal('image/jpeg'),
  size: z.number().int().positive().max(POSTER_MAX_BYTES),
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
}

/** The answer to POST /api/uploads/:id/poster: where to PUT the JPEG, before the video's confirm. */
export interface PosterUploadResponse {
  id: string
  expiresAt: string
  upload: Extract<UploadTarget, { type: 'single' }>
}

export interface ConfirmUploadResponse {
  id: string
  status: UploadStatus
}
