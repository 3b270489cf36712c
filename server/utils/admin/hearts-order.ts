import { and, count, desc, sql, type SQL } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import { decodeHeartsCursor, encodeHeartsCursor, type HeartsCursor } from '#shared/cursor'
import { ErrorCode } from '#shared/errors'
import { containsPattern, foldQuery, LIKE_ESCAPE } from '#shared/search'
import { listColumns, type AdminListRow } from './search'
import type { Db } from '../db'

/**
 * An upload's hearts, as a column: one seek in the hearts' primary key per upload. The id is
 * spelled with its table: drizzle writes a lone table's columns unqualified.
 */
const heartsOf = sql<number>`(SELECT count(*) FROM hearts WHERE hearts.upload_id = "uploads"."id")`

function heartsCursorFromQuery(value: string | undefined): HeartsCursor | undefined {
  if (value === undefined) return undefined
  const cursor = decodeHeartsCursor(value)
  if (!cursor) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', {
      issues: [{ path: ['cursor'], code: 'invalid_cursor', message: 'not a cursor given by this service' }],
    })
  }
  return cursor
}

/**
 * The admin list most hearted first (`sort=hearts`), ties newest first, keyset over (hearts,
 * created_at, id). Every confirmed upload matching the filter has its hearts counted and the
 * whole is sorted: fine for an event's few thousand uploads, which is why this order is the
 * admin's choice and never the default. A text search is a plain LIKE over the folded text
 * here; the total is exact. A heart given while the admin pages may move an upload across a page
 * boundary, as any count-ordered list.
 */
export async function findUploadsByHearts(db: Db, filter: SQL | undefined, q: string | undefined, cursorValue: string | undefined, limit: number) {
  const cursor = heartsCursorFromQuery(cursorValue)
  const folded = q ? foldQuery(q) : ''
  const where = and(filter, folded ? sql`${uploads.searchText} LIKE ${containsPattern(folded)} ESCAPE ${LIKE_ESCAPE}` : undefined)
  const after = cursor ? sql`(${heartsOf}, ${uploads.createdAt}, ${uploads.id}) < (${cursor.hearts}, ${cursor.createdAt.getTime()}, ${cursor.id})` : undefined
  const [rows, total] = await Promise.all([
    db.select({ ...listColumns, hearts: heartsOf.mapWith(Number) }).from(uploads)
      .where(and(where, after))
      .orderBy(desc(heartsOf), desc(uploads.createdAt), desc(uploads.id))
      .limit(limit + 1),
    db.select({ n: count() }).from(uploads).where(where).get(),
  ])
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  const nextCursor = rows.length > limit && last ? encodeHeartsCursor(last) : null
  return { rows: page as (AdminListRow & { hearts: number })[], nextCursor, total: total?.n ?? 0 }
}
