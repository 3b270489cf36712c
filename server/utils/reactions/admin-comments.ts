import { and, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { comments, uploads, type CommentRow } from '../../../db/schema'
import type { BulkResult } from '#shared/schemas/admin'
import type { AdminComment, AdminCommentListed, AdminCommentPage, adminCommentsQuerySchema, commentBulkSchema } from '#shared/schemas/reactions'
import { containsPattern, foldQuery, LIKE_ESCAPE } from '#shared/search'
import { cursorFromQuery, cutPage } from '../paging/keyset'
import { publicMediaUrls } from '../storage/media-urls'
import { toCommentItem } from './comments'

type AdminCommentsQuery = z.output<typeof adminCommentsQuerySchema>
type CommentBulk = z.output<typeof commentBulkSchema>

function toAdminComment(row: CommentRow): AdminComment {
  return { ...toCommentItem(row), uploadId: row.uploadId, status: row.status, updatedAt: row.updatedAt.toISOString() }
}

function filterOf(query: Pick<AdminCommentsQuery, 'status' | 'q'>): SQL | undefined {
  const folded = query.q ? foldQuery(query.q) : ''
  return and(
    query.status === 'all' ? undefined : eq(comments.status, query.status),
    folded ? sql`${comments.searchText} LIKE ${containsPattern(folded)} ESCAPE ${LIKE_ESCAPE}` : undefined,
  )
}

/**
 * The moderation list of comments, newest first, with the guestbook's status filter, search and
 * paging. Comments are a party's few thousand at most: the search is a plain LIKE over the folded
 * text, and the total an exact count.
 */
export async function listAdminComments(query: AdminCommentsQuery): Promise<AdminCommentPage> {
  const cursor = cursorFromQuery(query.cursor)
  const filter = filterOf(query)
  const before = cursor ? sql`(${comments.createdAt}, ${comments.id}) < (${cursor.createdAt.getTime()}, ${cursor.id})` : undefined
  const db = useDb()
  const [rows, total] = await Promise.all([
    db.select().from(comments).where(and(filter, before)).orderBy(desc(comments.createdAt), desc(comments.id)).limit(query.limit + 1),
    db.select({ n: count() }).from(comments).where(filter).get(),
  ])
  const page = cutPage(rows, query.limit)
  const thumbs = await thumbnailsOf([...new Set(page.rows.map(row => row.uploadId))])
  const items = page.rows.map((row): AdminCommentListed => ({ ...toAdminComment(row), thumbUrl: thumbs.get(row.uploadId) ?? null }))
  return { items, nextCursor: page.nextCursor, total: total?.n ?? 0 }
}

/** The photo each comment sits under, so the moderator sees what was said about what (one query a page). */
async function thumbnailsOf(uploadIds: string[]): Promise<Map<string, string | null>> {
  if (uploadIds.length === 0) return new Map()
  const found = await useDb().select().from(uploads).where(inArray(uploads.id, uploadIds)).all()
  return new Map(found.map(upload => [upload.id, publicMediaUrls(upload)?.thumbUrl ?? null]))
}

/** Approves or rejects one comment; 404 when there is none. */
export async function setCommentStatus(id: string, status: 'approved' | 'rejected'): Promise<AdminComment> {
  const db = useDb()
  await db.update(comments).set({ status, updatedAt: new Date() }).where(and(eq(comments.id, id), ne(comments.status, status)))
  const row = await db.select().from(comments).where(eq(comments.id, id)).get()
  if (!row) throw notFound()
  return toAdminComment(row)
}

export async function deleteComment(id: string): Promise<{ id: string, deleted: true }> {
  const removed = await useDb().delete(comments).where(eq(comments.id, id)).returning({ id: comments.id })
  if (removed.length === 0) throw notFound()
  return { id, deleted: true }
}

/** One action over many comments, in one transaction, all or none; unknown ids are reported, not refused. */
export async function bulkComments({ ids, action }: CommentBulk): Promise<BulkResult> {
  const requested = [...new Set(ids)]
  const found = await useDb().transaction(async (tx) => {
    const present = (await tx.select({ id: comments.id }).from(comments).where(inArray(comments.id, requested))).map(row => row.id)
    if (present.length === 0) return present
    if (action === 'delete') {
      await tx.delete(comments).where(inArray(comments.id, present))
    }
    else {
      const status = action === 'approve' ? 'approved' : 'rejected'
      await tx.update(comments).set({ status, updatedAt: new Date() }).where(and(inArray(comments.id, present), ne(comments.status, status)))
    }
    return present
  })
  const done = new Set(found)
  return { action, processed: requested.filter(id => done.has(id)), notFound: requested.filter(id => !done.has(id)) }
}

/** The comments by status, for the admin's stats and the Comentários tab's badge. */
export async function commentCounts(): Promise<{ total: number, pending: number, approved: number, rejected: number }> {
  const rows = await useDb().select({ status: comments.status, n: count() }).from(comments).groupBy(comments.status).all()
  const of = (status: CommentRow['status']) => rows.find(row => row.status === status)?.n ?? 0
  const [pending, approved, rejected] = [of('pending'), of('approved'), of('rejected')]
  return { total: pending + approved + rejected, pending, approved, rejected }
}
