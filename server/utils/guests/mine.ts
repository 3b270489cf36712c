import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import type { MyUpload, MyUploadsPage } from '#shared/schemas/mine'
import { useDb } from '../db'
import { getEventSettings } from '../event-settings'
import { cursorFromQuery, cutPage, newestFirst, olderThan } from '../paging/keyset'

/**
 * "My photos": the confirmed uploads of one guest device, newest first, over the partial index
 * uploads_guest_idx (guest_id, created_at, id). In flight ones are still in the device's own queue.
 */
/** The challenges a device's confirmed uploads answer, over its rows of uploads_guest_idx. */
async function answeredChallenges(guestId: string): Promise<string[]> {
  const rows = await useDb().selectDistinct({ challengeId: uploads.challengeId }).from(uploads)
    .where(and(eq(uploads.guestId, guestId), isNotNull(uploads.confirmedAt), isNotNull(uploads.challengeId)))
  return rows.map(row => row.challengeId!).sort()
}

export async function listMyUploads(guestId: string, query: { cursor?: string, limit: number }): Promise<MyUploadsPage> {
  const cursor = cursorFromQuery(query.cursor)
  const { maxUploadsPerGuest: limit } = await getEventSettings()
  const found = await useDb().select().from(uploads)
    .where(and(eq(uploads.guestId, guestId), isNotNull(uploads.confirmedAt), olderThan(cursor)))
    .orderBy(...newestFirst)
    .limit(query.limit + 1)
  const { rows, nextCursor } = cutPage(found, query.limit)
  const windowMs = useConfig().UNDO_WINDOW_SECONDS * 1000
  const now = Date.now()
  const items = rows.map((row): MyUpload => {
    const thumbUrl = publicMediaUrls(row)?.thumbUrl ?? undefined
    const undoUntil = row.confirmedAt!.getTime() + windowMs
    return {
      id: row.id,
      kind: row.kind,
      ...(thumbUrl ? { thumbUrl } : {}),
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      ...(row.challengeId ? { challengeId: row.challengeId } : {}),
      ...(row.undoTokenHash && undoUntil > now ? { undoUntil: new Date(undoUntil).toISOString() } : {}),
    }
  })
  return { items, nextCursor, limit, used: await guestUploadCount(guestId), answeredChallenges: await answeredChallenges(guestId) }
}
