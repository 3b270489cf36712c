import { z } from './zod'
import { PICTURE_KINDS, STATUS_FILTERS, type MediaKind, type UploadStatus, type VideoDisplay } from '#shared/enums'
import { MESSAGE_MAX_LENGTH, SEARCH_QUERY_MAX_LENGTH } from '#shared/limits'
import { authorNameSchema, guestText, idSchema, singleQuery } from '#shared/schemas/common'
import type { PhoneImagesRefusal, PublicImageSource } from '#shared/media/public-image'

export const ADMIN_UPLOAD_SORTS = ['newest', 'hearts'] as const

export const adminUploadsQuerySchema = z.strictObject({
  status: singleQuery(z.enum(STATUS_FILTERS)).default('all'),
  kind: singleQuery(z.enum(PICTURE_KINDS)).optional(),
  q: singleQuery(z.string().trim().max(SEARCH_QUERY_MAX_LENGTH)).optional(),
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(200)).default(50),
  /** Newest first (the default), or most hearted first (docs/api.md, "Hearts and comments"). */
  sort: singleQuery(z.enum(ADMIN_UPLOAD_SORTS)).optional(),
  /** One moment's uploads only (docs/api.md, "Moments"). */
  moment: singleQuery(idSchema).optional(),
  /** One challenge's answers only. */
  challenge: singleQuery(idSchema).optional(),
})

export const adminUploadPatchSchema = z.strictObject({
  author: authorNameSchema,
  message: guestText(MESSAGE_MAX_LENGTH),
  /** Moves it to another moment (null: none); not a words edit, so it locks nothing. */
  momentId: idSchema.nullable(),
}).partial()

const bulkIds = z.array(idSchema).min(1).max(500)

export const bulkActionSchema = z.discriminatedUnion('action', [
  z.strictObject({ ids: bulkIds, action: z.enum(['approve', 'reject', 'delete']) }),
  /** Puts every upload in one moment (null: in none). */
  z.strictObject({ ids: bulkIds, action: z.literal('moment'), momentId: idSchema.nullable() }),
])

export type BulkAction = z.infer<typeof bulkActionSchema>

/**
 * Where a photo's public images came from. `missing` says why the public cannot see it yet:
 * `waiting` for the server's derivation, or `undecodable` (the server cannot decode the original,
 * a HEIC say, and the phone sent no acceptable images). `phoneImagesRefusal` says why confirm
 * did not take the images the phone sent (the server then derived them).
 */
export interface AdminPublicImage {
  source: Exclude<PublicImageSource, 'undecodable'> | null
  missing: 'waiting' | 'undecodable' | null
  phoneImagesRefusal: PhoneImagesRefusal | null
}

export interface AdminUpload {
  id: string
  status: UploadStatus
  kind: MediaKind
  author: string
  message: string
  fileName: string
  contentType: string
  size: number
  width: number | null
  height: number | null
  durationSec: number | null
  url: string
  thumbUrl: string | null
  /** The 960 px thumbnail for 3× screens, where one exists (as in the gallery). */
  thumb2xUrl: string | null
  /** Photos only: who made the public images, or why there are none (yet). Null for videos. */
  publicImage: AdminPublicImage | null
  /** Videos only: what the public address plays, or that a display copy is being made (docs/api.md, "Display copies"). Null for photos. */
  display: VideoDisplay | null
  /** Videos only: the picture's codec as its container names it (`h264`, `hevc`, `vp9`, …), null when unread. */
  videoCodec: string | null
  originalUrl: string
  isCover: boolean
  /** Guests' hearts and approved comments (docs/api.md, "Hearts and comments"). */
  hearts: number
  commentCount: number
  /** The moment of the day it belongs to, or null. */
  momentId: string | null
  /** When the phone says it was taken (the couple's: never in public answers), or null. */
  takenAt: string | null
  /** The challenge it answers, or null. */
  challengeId: string | null
  createdAt: string
  confirmedAt: string | null
  updatedAt: string
}

export interface AdminUploadPage {
  items: AdminUpload[]
  nextCursor: string | null
  /** All matches of the filter; with `q`, counted up to SEARCH_TOTAL_LIMIT (shared/search.ts). */
  total: number
  /** There are more matches than `total`: counting stopped there (docs/api.md). */
  totalIsLowerBound: boolean
}

export interface BulkResult {
  action: BulkAction['action']
  processed: string[]
  notFound: string[]
}

export interface AdminStats {
  total: number
  pending: number
  approved: number
  rejected: number
  photos: number
  videos: number
  totalBytes: number
  lastUploadAt: string | null
  perHour: { hour: string, count: number }[]
  /** Guestbook messages, written and spoken, by status (spoken ones are not in the counts above). */
  messages: { total: number, pending: number, approved: number, rejected: number }
  /** Comments under photos, by status: the pending ones wait in the Comentários tab and count in the tab title's pending, as the notifications count them. */
  comments: { total: number, pending: number, approved: number, rejected: number }
}
