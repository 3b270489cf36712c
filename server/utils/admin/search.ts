import { and, asc, count, eq, getTableColumns, gte, sql, type SQL } from 'drizzle-orm'
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'
import { uploadSearchKeys, uploads, type UploadRow } from '../../../db/schema'
import type { UploadCursor } from '#shared/cursor'
import {
  containsPattern, LIKE_ESCAPE, SEARCH_TOTAL_LIMIT, SHORT_SEARCH_WINDOW, trigramPhrase,
} from '#shared/search'
import type { Db } from '../db'
import { keysetCompare, newestFirst, olderThan } from '../paging/keyset'

/**
 * A handle on the text index for building queries: an FTS5 table (migration 0006), so drizzle-kit
 * must not see it (it would try to create a plain table); db/schema.ts does not declare it.
 */
const uploadsFts = sqliteTable('uploads_fts', { rowid: integer('rowid').notNull() })

/**
 * The first index key of an upload made at `createdAt` (ms) and of everything older: keys run in
 * the list's order, newest first (migration 0006 computes them the same way).
 */
const firstKeyAt = (createdAt: number) => sql`(8796093022208 - ${createdAt}) * 1024`

/**
 * What an admin list item is made of (toAdminUpload): not search_text, the multipart state,
 * derived_at or the phone's declaration of its public images. Reading and converting the cells of a 50-row page is a good part of its cost.
 */
const { searchText: _searchText, multipartUploadId: _multipartUploadId, partCount: _partCount, derivedAt: _derivedAt, phoneImages: _phoneImages, ...listColumns } = getTableColumns(uploads)
export { listColumns }
export type AdminListRow = Omit<UploadRow, 'searchText' | 'multipartUploadId' | 'partCount' | 'derivedAt' | 'phoneImages'>

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
 * Rows read beyond the page: one, so that the page's last millisecond is known to be complete
 * unless the row after it shares it (rare: then the page reads again, further).
 */
const SAME_MILLISECOND_SLACK = 1

/**
 * The admin list's page and total, with `q` searched as plain text in author and message.
 *
 * A query of three characters or more is looked up in the trigram index, whose keys run in the
 * list's order: the page is the index's first matches after the cursor, read lazily, whether the
 * query matches ten uploads or ten thousand, never a walk of the list or a sort of every match.
 * Counting stops past `totalLimit` (the total is then a lower bound). A status or kind filter
 * needs each match's row: when the query matches more than `totalLimit` uploads, the filter's own
 * index, walked newest first with the same substring test as a LIKE, finds the page sooner.
 * Folded text looks the same to the index and to LIKE: the answers are the same either way.
 *
 * A shorter query cannot use the index: it is a LIKE over the newest `shortWindow` uploads of the
 * list only, so that one keystroke cannot read a whole festival's uploads.
 */
export async function findAdminUploads(db: Db, search: AdminUploadsSearch): Promise<AdminUploadsFound> {
  const { filter, q, cursor, fetch } = search
  const totalLimit = search.totalLimit ?? SEARCH_TOTAL_LIMIT
  const walk = (where: SQL | undefined) => db.select(listColumns).from(uploads).where(and(where, olderThan(cursor))).orderBy(...newestFirst).limit(fetch)
  const capped = (where: SQL | undefined) => db.select({ n: count() })
    .from(db.select({ one: sql`1` }).from(uploads).where(where).limit(totalLimit + 1).as('capped'))
  const bounded = (n: number, cut = false) => ({ total: Math.min(n, totalLimit), totalIsLowerBound: cut || n > totalLimit })

  if (!q) {
    // No text: the count reads an index, exact (the status tabs show the same numbers).
    const [rows, [counted]] = await db.batch([walk(filter), db.select({ n: count() }).from(uploads).where(filter)])
    return { rows, total: counted?.n ?? 0, totalIsLowerBound: false }
  }

  const phrase = trigramPhrase(q)
  if (phrase === null) {
    const window = await shortSearchWindow(db, filter, search.shortWindow ?? SHORT_SEARCH_WINDOW)
    const where = and(filter, contains(q), window.from)
    const [rows, [counted]] = await db.batch([walk(where), capped(where)])
    return { rows, ...bounded(counted?.n ?? 0, window.cut) }
  }

  // From the index to the keys to the rows, in that order (CROSS JOIN fixes it in SQLite).
  const joined = (where: SQL | undefined) => and(
    matches(phrase), eq(uploadSearchKeys.key, uploadsFts.rowid), eq(uploads.id, uploadSearchKeys.uploadId), where)
  const indexPage = (reading: number) => db.select(listColumns).from(uploadsFts).crossJoin(uploadSearchKeys).crossJoin(uploads)
    .where(joined(and(filter, cursor && gte(uploadsFts.rowid, firstKeyAt(cursor.createdAt.getTime())), olderThan(cursor))))
    .orderBy(asc(uploadsFts.rowid)).limit(reading)
  const inListOrder = (first: AdminListRow[]) => pageInListOrder(first, fetch + SAME_MILLISECOND_SLACK, fetch, indexPage)
  const indexCount = db.select({ n: count() })
    .from(db.select({ one: sql`1` }).from(uploadsFts).where(matches(phrase)).limit(totalLimit + 1).as('matched'))

  if (!search.narrowed) {
    // The index holds exactly the confirmed uploads: it counts them alone.
    const [first, [counted]] = await db.batch([indexPage(fetch + SAME_MILLISECOND_SLACK), indexCount])
    return { rows: await inListOrder(first), ...bounded(counted?.n ?? 0) }
  }

  const found = (await indexCount)[0]?.n ?? 0
  if (found > totalLimit) {
    const where = and(filter, contains(q))
    const [rows, [counted]] = await db.batch([walk(where), capped(where)])
    return { rows, ...bounded(counted?.n ?? 0) }
  }
  const [first, [counted]] = await db.batch([
    indexPage(fetch + SAME_MILLISECOND_SLACK),
    db.select({ n: count() }).from(uploadsFts).crossJoin(uploadSearchKeys).crossJoin(uploads).where(joined(filter)),
  ])
  return { rows: await inListOrder(first), ...bounded(counted?.n ?? 0) }
}

/**
 * The page, newest first, from rows read in index order (`reading` of them at most). The index
 * orders by millisecond only; uploads made in the same one come in any order, so the page takes
 * only milliseconds it has read in full and, should the last of them not fill it, reads again,
 * four times as far. The list's order breaks ties by id, as SQLite compares text (ids are ASCII).
 */
async function pageInListOrder<T extends { createdAt: Date, id: string }>(
  rows: T[], reading: number, fetch: number, read: (reading: number) => PromiseLike<T[]>,
): Promise<T[]> {
  for (;;) {
    const oldest = rows.length === reading ? rows[rows.length - 1]!.createdAt.getTime() : -Infinity
    const complete = rows.filter(row => row.createdAt.getTime() > oldest)
    if (complete.length >= fetch || rows.length < reading) {
      return complete
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .slice(0, fetch)
    }
    reading *= 4
    rows = await read(reading)
  }
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
  return { from: keysetCompare('>=', edge[0].createdAt.getTime(), edge[0].id), cut: edge.length > 1 }
}
