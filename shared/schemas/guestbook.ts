import { z } from './zod'
import { STATUS_FILTERS, UPLOAD_STATUSES, type UploadStatus } from '#shared/enums'
import { GUESTBOOK_TEXT_MAX_LENGTH, SEARCH_QUERY_MAX_LENGTH } from '#shared/limits'
import { authorNameSchema, guestText, idSchema, singleQuery } from '#shared/schemas/common'

/** A written message: the author as at init, the text sanitised as an upload's message, never empty. */
export const guestbookPostSchema = z.strictObject({
  author: authorNameSchema.default(''),
  text: guestText(GUESTBOOK_TEXT_MAX_LENGTH, 1),
  challengeToken: z.string().max(4096).optional(),
})

export type GuestbookPostBody = z.infer<typeof guestbookPostSchema>

export interface GuestbookPostResponse {
  id: string
  status: UploadStatus
  /** Lets this device remove the message for `undoWindowSec` (DELETE /api/guestbook/:id); the server keeps only its hash. */
  undoToken: string
  undoWindowSec: number
}

/** Written messages are `text`; spoken ones are uploads of kind `audio`. */
export const GUESTBOOK_TYPES = ['text', 'audio'] as const
export type GuestbookType = typeof GUESTBOOK_TYPES[number]

export interface GuestbookItem {
  id: string
  type: GuestbookType
  author: string
  /** Null for a spoken message. */
  text: string | null
  /** Null for a written message. */
  audioUrl: string | null
  /** Null for a written message. */
  durationSec: number | null
  createdAt: string
}

export interface GuestbookPage {
  items: GuestbookItem[]
  nextCursor: string | null
}

export const adminGuestbookQuerySchema = z.strictObject({
  status: singleQuery(z.enum(STATUS_FILTERS)).default('all'),
  q: singleQuery(z.string().trim().max(SEARCH_QUERY_MAX_LENGTH)).optional(),
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(200)).default(50),
})

/** What the admin may change on a message: its status, its author, its text (bounded as when sent). */
export const adminGuestbookPatchSchema = z.strictObject({
  status: z.enum(UPLOAD_STATUSES),
  author: authorNameSchema,
  text: guestText(GUESTBOOK_TEXT_MAX_LENGTH, 1),
}).partial()

export const guestbookBulkSchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(500),
  action: z.enum(['approve', 'reject', 'delete']),
})

export interface AdminGuestbookItem extends GuestbookItem {
  status: UploadStatus
  updatedAt: string
}

export interface AdminGuestbookPage {
  items: AdminGuestbookItem[]
  nextCursor: string | null
  /** All matches of the filter. */
  total: number
}
