import { z } from 'zod'
import { MEDIA_KINDS, STATUS_FILTERS, type MediaKind, type UploadStatus } from '#shared/enums'
import { AUTHOR_MAX_LENGTH, MESSAGE_MAX_LENGTH, SEARCH_QUERY_MAX_LENGTH } from '#shared/limits'
import { guestText, idSchema, singleQuery } from '#shared/schemas/common'

export const adminUploadsQuerySchema = z.strictObject({
  status: singleQuery(z.enum(STATUS_FILTERS)).default('all'),
  kind: singleQuery(z.enum(MEDIA_KINDS)).optional(),
  q: singleQuery(z.string().trim().max(SEARCH_QUERY_MAX_LENGTH)).optional(),
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(200)).default(50),
})

export const adminUploadPatchSchema = z.strictObject({
  author: guestText(AUTHOR_MAX_LENGTH),
  message: guestText(MESSAGE_MAX_LENGTH),
}).partial()

export const bulkActionSchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(500),
  action: z.enum(['approve', 'reject', 'delete']),
})

export type BulkAction = z.infer<typeof bulkActionSchema>

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
  originalUrl: string
  isCover: boolean
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
}
