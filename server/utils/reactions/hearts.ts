import { and, count, eq, sql } from 'drizzle-orm'
import { hearts } from '../../../db/schema'
import type { HeartAnswer, HeartedAnswer } from '#shared/schemas/reactions'
import type { Db, DbTransaction } from '../db'
import { requireGalleryPicture } from './picture'

async function heartsOf(uploadId: string, db: Db | DbTransaction): Promise<number> {
  const row = await db.select({ n: count() }).from(hearts).where(eq(hearts.uploadId, uploadId)).get()
  return row?.n ?? 0
}

/**
 * This device's heart on a gallery picture, given or taken back. Idempotent: the row's key is
 * (upload, device), so a repeated call changes nothing and answers the same. One transaction, so
 * an upload deleted meanwhile takes the new heart with it (its delete trigger) instead of leaving
 * a heart on nothing.
 */
export function setHeart(uploadId: string, guestId: string, hearted: boolean): Promise<HeartAnswer> {
  return useDb().transaction(async (tx) => {
    await requireGalleryPicture(uploadId, tx)
    if (hearted) {
      await tx.insert(hearts).values({ uploadId, guestId, createdAt: new Date() }).onConflictDoNothing()
    }
    else {
      await tx.delete(hearts).where(and(eq(hearts.uploadId, uploadId), eq(hearts.guestId, guestId)))
    }
    return { hearts: await heartsOf(uploadId, tx), hearted }
  })
}

/**
 * The pictures a device hearted that the public may still see (a rejected photo's heart stays in
 * the table, in case it comes back, but is nobody's business meanwhile).
 */
export async function heartedBy(guestId: string | null): Promise<HeartedAnswer> {
  if (!guestId) return { ids: [] }
  const rows = await useDb().all<{ upload_id: string }>(sql`SELECT h.upload_id FROM hearts h JOIN uploads u ON u.id = h.upload_id
    WHERE h.guest_id = ${guestId} AND u.status = 'approved' AND u.confirmed_at IS NOT NULL ORDER BY h.created_at DESC`)
  return { ids: rows.map(row => row.upload_id) }
}
