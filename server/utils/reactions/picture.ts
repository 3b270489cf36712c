import { and, eq, inArray } from 'drizzle-orm'
import { DISPLAYABLE, PUBLIC_UPLOAD, uploads } from '../../../db/schema'
import { PICTURE_KINDS } from '#shared/enums'
import type { Db, DbTransaction } from '../db'

/**
 * What a guest may heart or comment on: a photo or video the gallery shows (approved, confirmed,
 * displayable). Anything else, a pending upload or a voice message included, is as absent as an id
 * that never existed.
 */
export const GALLERY_PICTURE = (id: string) => and(eq(uploads.id, id), PUBLIC_UPLOAD, DISPLAYABLE, inArray(uploads.kind, PICTURE_KINDS))!

/** Throws 404 NOT_FOUND unless `id` is a picture the gallery shows. */
export async function requireGalleryPicture(id: string, db: Db | DbTransaction = useDb()): Promise<void> {
  const row = await db.select({ id: uploads.id }).from(uploads).where(GALLERY_PICTURE(id)).get()
  if (!row) throw notFound()
}
