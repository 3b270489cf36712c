import { z } from './zod'
import type { MediaKind, UploadStatus } from '#shared/enums'
import { singleQuery } from '#shared/schemas/common'

/** GET /api/uploads/mine: paged like the gallery. */
export const mineQuerySchema = z.strictObject({
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(100)).default(24),
})

/** One upload this guest device sent (confirmed), as "my photos" shows it. */
export interface MyUpload {
  id: string
  kind: MediaKind
  /** The metadata-free thumbnail (a video's poster frame), once there is one. */
  thumbUrl?: string
  status: UploadStatus
  createdAt: string
  /** The challenge it answers, when it answers one ("3 de 8 desafios"). */
  challengeId?: string
  /** While the device may still remove it (DELETE /api/uploads/:id with its undo token). */
  undoUntil?: string
}

export interface MyUploadsPage {
  items: MyUpload[]
  nextCursor: string | null
  /** The disposable-camera limit (null: none) and what this device holds against it, sent and in flight. */
  limit: number | null
  used: number
  /**
   * Every challenge this device answered, from all its confirmed uploads (not this page only):
   * "3 de 8 desafios" needs no second request and no paging through the list.
   */
  answeredChallenges: string[]
}
