import { and, asc, sql } from 'drizzle-orm'
import { DISPLAYABLE, moments, uploads, PUBLIC_UPLOAD } from '../../../db/schema'
import type { PublicMomentList } from '#shared/schemas/moments'
import { useDb } from '../db'

/**
 * The moments in the couple's order, each with what its gallery filter lists (approved photos and
 * videos the public can see): one range of uploads_moment_gallery_idx per moment, never a walk of
 * the uploads.
 */
export async function publicMoments(): Promise<PublicMomentList> {
  // Spelled out with their tables: drizzle writes a lone table's columns unqualified, and a bare
  // `id` inside `FROM uploads` is the upload's.
  const count = sql<number>`(SELECT count(*) FROM ${uploads} WHERE "uploads"."moment_id" = "moments"."id" AND ${and(PUBLIC_UPLOAD, DISPLAYABLE)})`.mapWith(Number)
  const rows = await useDb().select({ id: moments.id, name: moments.name, count }).from(moments)
    .orderBy(asc(moments.position), asc(moments.id))
  return { items: rows }
}
