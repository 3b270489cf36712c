import { z } from './zod'
import { STATUS_FILTERS, type UploadStatus } from '#shared/enums'
import { GUESTBOOK_TEXT_MAX_LENGTH, SEARCH_QUERY_MAX_LENGTH } from '#shared/limits'
import { authorNameSchema, guestText, idSchema, singleQuery } from '#shared/schemas/common'

/** POST and DELETE /api/gallery/:id/heart: the photo's count after the call, and this device's heart. */
export interface HeartAnswer {
  hearts: number
  hearted: boolean
}

/** GET /api/gallery/hearted: the items this device hearted (private to it, never in the shared gallery answer). */
export interface HeartedAnswer {
  ids: string[]
}

/** The newest approved comment on a gallery item, so the projector needs no call per slide. */
export interface LatestComment {
  author: string
  text: string
}

/** A comment under a photo: the guestbook's limits and cleaning (author as at init, text never empty). */
export const commentPostSchema = z.strictObject({
  author: authorNameSchema.default(''),
  text: guestText(GUESTBOOK_TEXT_MAX_LENGTH, 1),
  challengeToken: z.string().max(4096).optional(),
})

export type CommentPostBody = z.infer<typeof commentPostSchema>

export interface CommentPostAnswer {
  id: string
  status: UploadStatus
  /** Lets this device remove the comment until `undoUntil` (DELETE …/comments/:commentId); the server keeps only its hash. */
  undoToken: string
  undoUntil: string
}

export const commentParamsSchema = z.object({ id: idSchema, commentId: idSchema })

export const commentsQuerySchema = z.strictObject({
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(100)).default(50),
  screenKey: singleQuery(z.string().max(200)).optional(),
})

export interface CommentItem {
  id: string
  author: string
  text: string
  createdAt: string
}

export interface CommentPage {
  items: CommentItem[]
  nextCursor: string | null
}

export const adminCommentsQuerySchema = z.strictObject({
  status: singleQuery(z.enum(STATUS_FILTERS)).default('all'),
  q: singleQuery(z.string().trim().max(SEARCH_QUERY_MAX_LENGTH)).optional(),
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(200)).default(50),
})

export const commentBulkSchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(500),
  action: z.enum(['approve', 'reject', 'delete']),
})

export interface AdminComment extends CommentItem {
  uploadId: string
  status: UploadStatus
  updatedAt: string
}

/** A comment in the admin's list, with its photo's thumbnail (null until the photo's images are made). */
export interface AdminCommentListed extends AdminComment {
  thumbUrl: string | null
}

export interface AdminCommentPage {
  items: AdminCommentListed[]
  nextCursor: string | null
  /** All matches of the filter. */
  total: number
}
