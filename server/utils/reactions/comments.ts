import { and, asc, eq, sql } from 'drizzle-orm'
import { comments, type CommentRow } from '../../../db/schema'
import { encodeUploadCursor } from '#shared/cursor'
import type { CommentItem, CommentPage, CommentPostAnswer, CommentPostBody } from '#shared/schemas/reactions'
import { newModeratedWords } from '../moderated-words'
import { cursorFromQuery } from '../paging/keyset'
import { requireGalleryPicture } from './picture'

/**
 * A comment just written, as whoever must hear of it sees it (the moderation's notifications hook
 * in where this is returned: server/api/gallery/[id]/comments/index.post.ts).
 */
export type NewComment = Pick<CommentRow, 'id' | 'uploadId' | 'status' | 'author' | 'text' | 'createdAt'>

/**
 * A guest's comment under a gallery picture: shown at once under post-moderation, after an admin's
 * approval under pre, as the guestbook's messages. One transaction with the picture's check, so an
 * upload deleted meanwhile takes the comment with it (its delete trigger).
 */
export async function createComment(uploadId: string, body: CommentPostBody): Promise<{ comment: NewComment, answer: CommentPostAnswer }> {
  const { row, undoToken } = await newModeratedWords(body)
  await useDb().transaction(async (tx) => {
    await requireGalleryPicture(uploadId, tx)
    await tx.insert(comments).values({ ...row, uploadId })
  })
  const { id, status, createdAt: now } = row
  const undoUntil = new Date(now.getTime() + useConfig().UNDO_WINDOW_SECONDS * 1000).toISOString()
  return {
    comment: { id, uploadId, status, author: body.author, text: body.text, createdAt: now },
    answer: { id, status, undoToken, undoUntil },
  }
}

export function toCommentItem(row: Pick<CommentRow, 'id' | 'author' | 'text' | 'createdAt'>): CommentItem {
  return { id: row.id, author: row.author, text: row.text, createdAt: row.createdAt.toISOString() }
}

/**
 * A picture's approved comments, oldest first (a conversation reads down), keyset over
 * (created_at, id) on comments_upload_status_created_idx.
 */
export async function listComments(uploadId: string, query: { cursor?: string, limit: number }): Promise<CommentPage> {
  await requireGalleryPicture(uploadId)
  const cursor = cursorFromQuery(query.cursor)
  const after = cursor ? sql`(${comments.createdAt}, ${comments.id}) > (${cursor.createdAt.getTime()}, ${cursor.id})` : undefined
  const rows = await useDb().select({ id: comments.id, author: comments.author, text: comments.text, createdAt: comments.createdAt })
    .from(comments)
    .where(and(eq(comments.uploadId, uploadId), eq(comments.status, 'approved'), after))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(query.limit + 1)
  const page = rows.slice(0, query.limit)
  const nextCursor = rows.length > query.limit ? encodeUploadCursor(page[page.length - 1]!) : null
  return { items: page.map(toCommentItem), nextCursor }
}

/**
 * The sending device removes its comment within the undo window, with the token it was given:
 * the same rules and codes as an upload's undo (a comment's window starts when it is sent).
 */
export async function undoComment(uploadId: string, commentId: string, token: string | undefined): Promise<void> {
  await useDb().transaction(async (tx) => {
    const row = await tx.select().from(comments).where(and(eq(comments.id, commentId), eq(comments.uploadId, uploadId))).get()
    if (!row) throw notFound()
    authorizeUndo({ undoTokenHash: row.undoTokenHash, confirmedAt: row.createdAt }, token)
    await tx.delete(comments).where(eq(comments.id, commentId))
  })
}
