import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../db/schema'
import type { UploadCursor } from '../../shared/cursor'
import type { GalleryItem, GalleryPage } from '../../shared/schemas/gallery'
import type { Db } from './db'
import { cursorFromQuery, cutPage, newestFirst, olderThan } from './upload-pages'

/**
 * One gallery page plus one row (to know whether another page follows). Keyset over the index
 * uploads_status_created_idx (status, created_at, id): a page costs the same on the first
 * visit and after ten thousand uploads, and items arriving meanwhile never shift a page.
 */
export function galleryPageQuery(db: Db, cursor: UploadCursor | undefined, limit: number) {
  return db.select().from(uploads)
    .where(and(eq(uploads.status, 'approved'), isNotNull(uploads.confirmedAt), olderThan(cursor)))
    .orderBy(...newestFirst)
    .limit(limit + 1)
}

export async function toGalleryItem(row: UploadRow): Promise<GalleryItem> {
  const { url, thumbUrl } = await publicMediaUrls(row)
  return {
    id: row.id,
    kind: row.kind,
    author: row.author,
    message: row.message,
    url,
    thumbUrl,
    width: row.width,
    height: row.height,
    durationSec: row.durationSec,
    createdAt: row.createdAt.toISOString(),
  }
}

export async function listGallery(query: { cursor?: string, limit: number }): Promise<GalleryPage> {
  const cursor = cursorFromQuery(query.cursor)
  const { rows, nextCursor } = cutPage(await galleryPageQuery(useDb(), cursor, query.limit), query.limit)
  return { items: await Promise.all(rows.map(toGalleryItem)), nextCursor }
}
