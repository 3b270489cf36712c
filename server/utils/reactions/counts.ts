import { sql } from 'drizzle-orm'

export interface ReactionCounts {
  hearts: number
  /** Approved comments, as the gallery counts them. */
  commentCount: number
}

export const NO_REACTIONS: ReactionCounts = { hearts: 0, commentCount: 0 }

/** Hearts and approved comments of a page of uploads, in one query (two index walks), by upload id. */
export async function reactionCounts(ids: string[]): Promise<Map<string, ReactionCounts>> {
  const counts = new Map<string, ReactionCounts>()
  if (ids.length === 0) return counts
  const list = sql.join(ids.map(id => sql`${id}`), sql`, `)
  const rows = await useDb().all<{ upload_id: string, hearts: number, comments: number }>(sql`
    SELECT upload_id, sum(h) AS hearts, sum(c) AS comments FROM (
      SELECT upload_id, 1 AS h, 0 AS c FROM hearts WHERE upload_id IN (${list})
      UNION ALL
      SELECT upload_id, 0, 1 FROM comments WHERE upload_id IN (${list}) AND status = 'approved'
    ) GROUP BY upload_id`)
  for (const row of rows) counts.set(row.upload_id, { hearts: Number(row.hearts), commentCount: Number(row.comments) })
  return counts
}
