import { and, asc, eq, sql } from 'drizzle-orm'
import { challenges, DISPLAYABLE, uploads, PUBLIC_UPLOAD } from '../../../db/schema'
import type { PublicChallengeList } from '#shared/schemas/challenges'
import { useDb } from '../db'

/**
 * The active challenges in the couple's order; with `withCounts`, each with what its gallery filter
 * lists (one range of uploads_challenge_gallery_idx per challenge).
 */
export async function publicChallenges(withCounts: boolean): Promise<PublicChallengeList> {
  // Spelled out with their tables: drizzle writes a lone table's columns unqualified, and a bare
  // `id` inside `FROM uploads` is the upload's.
  const count = sql<number>`(SELECT count(*) FROM ${uploads} WHERE "uploads"."challenge_id" = "challenges"."id" AND ${and(PUBLIC_UPLOAD, DISPLAYABLE)})`.mapWith(Number)
  const rows = await useDb().select({ id: challenges.id, text: challenges.text, ...(withCounts ? { count } : {}) })
    .from(challenges).where(eq(challenges.active, true))
    .orderBy(asc(challenges.position), asc(challenges.id))
  return { items: rows }
}
