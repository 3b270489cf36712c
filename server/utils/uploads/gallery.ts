import { and, eq, sql } from 'drizzle-orm'
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
  momentId: uploads.momentId,
  challengeId: uploads.challengeId,
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
 * What a gallery list may be narrowed to: one moment of the day, or one challenge's answers (one
 * at a time). Each filter is an equality in front of the same keyset, served by its own partial
 * index (uploads_moment_gallery_idx, uploads_challenge_gallery_idx).
 */
export interface GalleryFilter { moment?: string, challenge?: string }
type FilterKind = 'all' | 'moment' | 'challenge'

const filterColumns = { moment: uploads.momentId, challenge: uploads.challengeId }

function filterOf(filter: GalleryFilter): { kind: FilterKind, value?: string } {
  if (filter.moment !== undefined) return { kind: 'moment', value: filter.moment }
  if (filter.challenge !== undefined) return { kind: 'challenge', value: filter.challenge }
  return { kind: 'all' }
}

/**
 * One gallery page plus one row (to know whether another page follows), with the cursor, the
 * limit and the filter's value as placeholders. Keyset over the partial index uploads_gallery_idx
 * (status, created_at, id) of displayable uploads (uploads_moment_gallery_idx and
 * uploads_challenge_gallery_idx with the filter's column in front): a page costs the same on the first visit and after ten thousand uploads, however many
 * photos still wait for their display image, and items arriving meanwhile never shift a page.
 */
export function galleryPageQuery(db: Db, afterCursor: boolean, kind: FilterKind = 'all') {
  const older = afterCursor ? keysetBefore(sql.placeholder('createdAt'), sql.placeholder('id')) : undefined
  const narrowed = kind === 'all' ? undefined : eq(filterColumns[kind], sql.placeholder('filter'))
  return db.select(galleryColumns).from(uploads)
    .where(and(PUBLIC_UPLOAD, DISPLAYABLE, narrowed, older))
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
}

type GalleryStatement = ReturnType<ReturnType<typeof galleryPageQuery>['prepare']>
export type GalleryRow = Awaited<ReturnType<GalleryStatement['all']>>[number]

// The gallery is what fifty phones and the projector poll all night: its statements are built
// once per database and filter, not on every request.
const prepared = new WeakMap<Db, Map<string, GalleryStatement>>()

function galleryStatement(db: Db, afterCursor: boolean, kind: FilterKind): GalleryStatement {
  let statements = prepared.get(db)
  if (!statements) prepared.set(db, statements = new Map())
  const key = `${kind}:${afterCursor ? 'after' : 'first'}`
  let statement = statements.get(key)
  if (!statement) statements.set(key, statement = galleryPageQuery(db, afterCursor, kind).prepare())
  return statement
}

export function galleryRows(db: Db, cursor: UploadCursor | undefined, limit: number, filter: GalleryFilter = {}): Promise<GalleryRow[]> {
  const { kind, value } = filterOf(filter)
  const values = kind === 'all' ? {} : { filter: value }
  return cursor
    ? galleryStatement(db, true, kind).all({ ...values, createdAt: cursor.createdAt.getTime(), id: cursor.id, limit: limit + 1 })
    : galleryStatement(db, false, kind).all({ ...values, limit: limit + 1 })
}

/** A page of the gallery, narrowed or not. */
export interface GalleryListQuery extends GalleryFilter { cursor?: string, limit: number }

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
    momentId: row.momentId,
    challengeId: row.challengeId,
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

export async function listGallery(query: GalleryListQuery, downloadsFrom?: string): Promise<GalleryPage> {
  const cursor = cursorFromQuery(query.cursor)
  const { rows, nextCursor } = cutPage(await galleryRows(useDb(), cursor, query.limit, { moment: query.moment, challenge: query.challenge }), query.limit)
  return { items: rows.map(row => toGalleryItem(row, downloadsFrom)), nextCursor }
}
