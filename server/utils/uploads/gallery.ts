import { and, sql } from 'drizzle-orm'
import { DISPLAYABLE, uploads, PUBLIC_UPLOAD } from '../../../db/schema'
import type { UploadCursor } from '#shared/cursor'
import type { GalleryItem, GalleryPage } from '#shared/schemas/gallery'
import type { LatestComment } from '#shared/schemas/reactions'
import type { Db } from '../db'
import { cursorFromQuery, cutPage, keysetBefore, newestFirst } from '../paging/keyset'

/**
 * The listed upload's id, as seen from inside a subquery: spelled out with its table, since drizzle
 * writes a lone table's columns unqualified, and a bare `id` inside `FROM comments` is the comment's.
 */
const LISTED_UPLOAD_ID = sql.raw('"uploads"."id"')

/** What a gallery item is made of, and nothing more: every column read costs on every poll. */
const galleryColumns = {
  id: uploads.id,
  kind: uploads.kind,
  author: uploads.author,
  message: uploads.message,
  width: uploads.width,
  height: uploads.height,
  durationSec: uploads.durationSec,
  createdAt: uploads.createdAt,
  storageKey: uploads.storageKey,
  displayKey: uploads.displayKey,
  thumbKey: uploads.thumbKey,
  thumb2xKey: uploads.thumb2xKey,
  posterKey: uploads.posterKey,
  displayCopyKey: uploads.displayCopyKey,
  display: uploads.display,
  // Hearts and comments ride on the page every phone already polls, so no tile asks for its own.
  // Each is an index seek per item (hearts' primary key, comments_upload_status_created_idx), made
  // once per new answer (server/utils/reactions/counts-version.ts), not once per poller.
  hearts: sql<number>`(SELECT count(*) FROM hearts WHERE hearts.upload_id = ${LISTED_UPLOAD_ID})`.mapWith(Number),
  commentCount: sql<number>`(SELECT count(*) FROM comments WHERE comments.upload_id = ${LISTED_UPLOAD_ID} AND comments.status = 'approved')`.mapWith(Number),
  latestComment: sql<string | null>`(SELECT json_array(author, text) FROM comments WHERE comments.upload_id = ${LISTED_UPLOAD_ID} AND comments.status = 'approved' ORDER BY created_at DESC, id DESC LIMIT 1)`,
}

/**
 * One gallery page plus one row (to know whether another page follows), with the cursor and the
 * limit as placeholders. Keyset over the partial index uploads_gallery_idx (status, created_at,
 * id) of displayable uploads: a page costs the same on the first visit and after ten thousand
 * uploads, however many photos still wait for their display image, and items arriving meanwhile
 * never shift a page.
 */
export function galleryPageQuery(db: Db, afterCursor: boolean) {
  const older = afterCursor ? keysetBefore(sql.placeholder('createdAt'), sql.placeholder('id')) : undefined
  return db.select(galleryColumns).from(uploads)
    .where(and(PUBLIC_UPLOAD, DISPLAYABLE, older))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
}

type GalleryStatement = ReturnType<ReturnType<typeof galleryPageQuery>['prepare']>
export type GalleryRow = Awaited<ReturnType<GalleryStatement['all']>>[number]

// The gallery is what fifty phones and the projector poll all night: its two statements are
// built once per database, not on every request.
const prepared = new WeakMap<Db, { first: GalleryStatement, after: GalleryStatement }>()

export function galleryRows(db: Db, cursor: UploadCursor | undefined, limit: number): Promise<GalleryRow[]> {
  let statements = prepared.get(db)
  if (!statements) {
    statements = { first: galleryPageQuery(db, false).prepare(), after: galleryPageQuery(db, true).prepare() }
    prepared.set(db, statements)
  }
  return cursor
    ? statements.after.all({ createdAt: cursor.createdAt.getTime(), id: cursor.id, limit: limit + 1 })
    : statements.first.all({ limit: limit + 1 })
}

/** `downloadsFrom`: the origin of the download addresses, when the couple allows guests' downloads. */
export function toGalleryItem(row: GalleryRow, downloadsFrom?: string): GalleryItem {
  // The query lists only displayable uploads, so there is always something to show.
  const { url, thumbUrl, thumb2xUrl } = publicMediaUrls(row)!
  return {
    ...(downloadsFrom === undefined ? {} : { downloadUrl: downloadUrlOf(downloadsFrom, row.id) }),
    id: row.id,
    kind: row.kind,
    author: row.author,
    message: row.message,
    url,
    thumbUrl,
    thumb2xUrl,
    width: row.width,
    height: row.height,
    durationSec: row.durationSec,
    ...(row.kind === 'video' ? { display: row.display === 'poster-only' || row.display === 'copy' ? row.display : 'original' } : {}),
    createdAt: row.createdAt.toISOString(),
    hearts: row.hearts,
    commentCount: row.commentCount,
    latestComment: latestCommentOf(row.latestComment),
  }
}

function latestCommentOf(json: string | null): LatestComment | null {
  if (json === null) return null
  const [author, text] = JSON.parse(json) as [string, string]
  return { author, text }
}

export async function listGallery(query: { cursor?: string, limit: number }, downloadsFrom?: string): Promise<GalleryPage> {
  const cursor = cursorFromQuery(query.cursor)
  const { rows, nextCursor } = cutPage(await galleryRows(useDb(), cursor, query.limit), query.limit)
  return { items: rows.map(row => toGalleryItem(row, downloadsFrom)), nextCursor }
}
