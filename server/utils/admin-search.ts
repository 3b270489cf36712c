import { and, count, eq, getTableColumns, sql, type SQL } from 'drizzle-orm'
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'
import { uploadSearchKeys, uploads, type UploadRow } from '../../db/schema'
import type { UploadCursor } from '../../shared/cursor'
import {
  containsPattern, LIKE_ESCAPE, SEARCH_TOTAL_LIMIT, SHORT_SEARCH_WINDOW, trigramPhrase,
} from '../../shared/search'
import type { Db } from './db'
import { newestFirst, olderThan } from './upload-pages'

/**
 * A handle on the text index for building queries: an FTS5 table (migration 0004), so drizzle-kit
 * must not see it (it would try to create a plain table); db/schema.ts does not declare it.
 */
const uploadsFts = sqliteTable('uploads_fts', { rowid: integer('rowid').notNull() })

/**
 * What an admin list item is made of (toAdminUpload): not search_text, the multipart state or
 * derived_at. Reading and converting the cells of a 50-row page is a good part of its cost.
 */
const { searchText: _searchText, multipartUploadId: _multipartUploadId, partCount: _partCount, derivedAt: _derivedAt, ...listColumns } = getTableColumns(uploads)
export type AdminListRow = Omit<UploadRow, 'searchText' | 'multipartUploadId' | 'partCount' | 'derivedAt'>

export interface AdminUploadsSearch {
  /** The list's filters other than the text (confirmed, status, kind). */
  filter: SQL | undefined
  /** Whether `filter` narrows the list beyond "confirmed": the index alone cannot count then. */
  narrowed: boolean
  q: string | undefined
  cursor: UploadCursor | undefined
  /** Rows to read for the page (the page size plus one, to know whether there is a next page). */
  fetch: number
  /** Overridable for tests, which cannot seed 10,000 rows per case. */
  totalLimit?: number
  shortWindow?: number
}

export interface AdminUploadsFound {
  rows: AdminListRow[]
  total: number
  /** The list has more matches than `total` (counting stopped, or a short query's window ended). */
  totalIsLowerBound: boolean
}

const matches = (phrase: string) => sql`${uploadsFts} MATCH ${phrase}`
const contains = (q: string) => sql`${uploads.searchText} LIKE ${containsPattern(q)} ESCAPE ${LIKE_ESCAPE}`

/**
 * The admin list's page and total, with `q` searched as plain text in author and message.
 *
 * A query of three characters or more is looked up in the trigram index: the index first counts
 * its matches, stopping past `totalLimit`. A query with at most that many matches reads them from
 * the index and sorts them (the total is exact). One with more matches walks the list newest
 * first and tests each entry with the same substring test as a LIKE (one row in every N/limit
 * matches at least, so the page fills quickly); its total is `totalLimit`, a lower bound. The
 * answer is the same either way: folded text looks the same to the index and to LIKE.
 *
 * A shorter query cannot use the index: it is a LIKE over the newest `shortWindow` uploads of the
 * list only, so that one keystroke cannot read a whole festival's uploads.
 */
export async function findAdminUploads(db: Db, search: AdminUploadsSearch): Promise<AdminUploadsFound> {
  const { filter, q, cursor, fetch } = search
  const totalLimit = search.totalLimit ?? SEARCH_TOTAL_LIMIT
  const page = (where: SQL | undefined) => db.select(listColumns).from(uploads).where(and(where, olderThan(cursor))).orderBy(...newestFirst).limit(fetch)
  const capped = (where: SQL | undefined) => db.select({ n: count() })
    .from(db.select({ one: sql`1` }).from(uploads).where(where).limit(totalLimit + 1).as('capped'))
  const bounded = (n: number, cut = false) => ({ total: Math.min(n, totalLimit), totalIsLowerBound: cut || n > totalLimit })

  if (!q) {
    // No text: the count reads an index, exact (the status tabs show the same numbers).
    const [rows, [counted]] = await db.batch([page(filter), db.select({ n: count() }).from(uploads).where(filter)])
    return { rows, total: counted?.n ?? 0, totalIsLowerBound: false }
  }

  const phrase = trigramPhrase(q)
  if (phrase === null) {
    const window = await shortSearchWindow(db, filter, search.shortWindow ?? SHORT_SEARCH_WINDOW)
    const where = and(filter, contains(q), window.from)
    const [rows, [counted]] = await db.batch([page(where), capped(where)])
    return { rows, ...bounded(counted?.n ?? 0, window.cut) }
  }

  const [indexed] = await db.select({ n: count() })
    .from(db.select({ one: sql`1` }).from(uploadsFts).where(matches(phrase)).limit(totalLimit + 1).as('matched'))
  const found = indexed?.n ?? 0
  if (found > totalLimit) {
    const where = and(filter, contains(q))
    if (!search.narrowed) return { rows: await page(where), ...bounded(found) }
    const [rows, [counted]] = await db.batch([page(where), capped(where)])
    return { rows, ...bounded(counted?.n ?? 0) }
  }

  // Few matches: from the index to their rows, in that order (CROSS JOIN fixes the order in
  // SQLite), then filtered and sorted; never a walk of the list hoping to meet them.
  const matched = (where: SQL | undefined) => and(
    matches(phrase), eq(uploadSearchKeys.key, uploadsFts.rowid), eq(uploads.id, uploadSearchKeys.uploadId), where)
  const [rows, [counted]] = await db.batch([
    db.select(listColumns).from(uploadsFts).crossJoin(uploadSearchKeys).crossJoin(uploads)
      .where(matched(and(filter, olderThan(cursor)))).orderBy(...newestFirst).limit(fetch),
    search.narrowed
      ? db.select({ n: count() }).from(uploadsFts).crossJoin(uploadSearchKeys).crossJoin(uploads).where(matched(filter))
      // The index holds exactly the confirmed uploads: it counts them alone.
      : db.select({ n: count() }).from(uploadsFts).where(matches(phrase)),
  ])
  return { rows, ...bounded(counted?.n ?? 0) }
}

/**
 * The oldest position a short query searches: the `size`-th newest upload of the list, and
 * whether older ones are left out. Reading `size` entries of an index is the bound.
 */
async function shortSearchWindow(db: Db, filter: SQL | undefined, size: number): Promise<{ from: SQL | undefined, cut: boolean }> {
  const edge = await db.select({ createdAt: uploads.createdAt, id: uploads.id }).from(uploads)
    .where(filter).orderBy(...newestFirst).limit(2).offset(size - 1)
  if (!edge[0]) return { from: undefined, cut: false }
  // The edge itself and everything newer: the keyset comparison turned around, so it seeks too.
  return { from: sql`(${uploads.createdAt}, ${uploads.id}) >= (${edge[0].createdAt.getTime()}, ${edge[0].id})`, cut: edge.length > 1 }
}
