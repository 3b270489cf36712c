import { and, eq, ne, sql } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { useDb } from '../db'
import { apiError } from '../http/errors'

/**
 * The disposable-camera limit (`maxUploadsPerGuest`). A device's uploads are its rows: confirmed
 * ones, and ones in flight (initialised, not yet confirmed), which hold their place so that eight
 * inits sent at once cannot all pass a limit of eight. Aborted, swept and undone uploads are
 * deleted rows, so they free their place; a duplicate is answered without a row, so it takes none.
 */

/** How many uploads this device holds besides `exceptId`. */
export async function guestUploadCount(guestId: string, exceptId?: string): Promise<number> {
  const row = await useDb().select({ count: sql<number>`count(*)` }).from(uploads)
    .where(and(eq(uploads.guestId, guestId), exceptId ? ne(uploads.id, exceptId) : undefined)).get()
  return row?.count ?? 0
}

/**
 * Called on the row init has just written. Parallel inits each insert first, then count the
 * device's rows written before or with their own (SQLite's rowid grows with each insert), so that
 * exactly the first `limit` stay, whatever order their counts run in; one beyond is refused with
 * 403 GUEST_LIMIT_REACHED (`data.limit`, `data.used`) and init deletes it again.
 */
export async function assertGuestSlot(row: Pick<UploadRow, 'id' | 'guestId'>, limit: number | null): Promise<void> {
  if (!row.guestId || limit === null) return
  const ahead = await useDb().select({ count: sql<number>`count(*)` }).from(uploads)
    .where(and(
      eq(uploads.guestId, row.guestId),
      sql`rowid <= (SELECT rowid FROM ${uploads} WHERE ${uploads.id} = ${row.id})`,
    )).get()
  if ((ahead?.count ?? 0) <= limit) return
  const used = await guestUploadCount(row.guestId, row.id)
  throw apiError(403, ErrorCode.GUEST_LIMIT_REACHED, 'Guest limit reached', { limit, used })
}
