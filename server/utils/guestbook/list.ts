import { sql, type SQL } from 'drizzle-orm'
import type { UploadCursor } from '#shared/cursor'
import type { UploadStatus } from '#shared/enums'
import type { GuestbookItem, GuestbookPage, GuestbookType } from '#shared/schemas/guestbook'
import { containsPattern, foldQuery, LIKE_ESCAPE } from '#shared/search'
import { cursorFromQuery, cutPage } from '../paging/keyset'

/** One guestbook entry as the queries below read it: a written message or a spoken one (an upload). */
export interface GuestbookEntryRow {
  id: string
  type: GuestbookType
  status: UploadStatus
  author: string
  text: string | null
  storageKey: string | null
  durationSec: number | null
  createdAt: Date
  updatedAt: Date
}

interface RawEntry {
  id: string
  type: GuestbookType
  status: UploadStatus
  author: string
  text: string | null
  storage_key: string | null
  duration_sec: number | null
  created_at: number
  updated_at: number
}

export interface GuestbookFilter {
  /** One status, or every status (the admin's list). */
  status: UploadStatus | 'all'
  /** Plain text looked for in author and text, folded as the uploads' search (shared/search.ts). */
  q?: string
}

/** Entries past the cursor: older ones (`<`, newest first) or newer ones (`>`, oldest first). */
const keyset = (cursor: UploadCursor | undefined, past: '<' | '>') =>
  cursor ? sql` AND (created_at, id) ${sql.raw(past)} (${cursor.createdAt.getTime()}, ${cursor.id})` : sql``
const statusIs = (status: GuestbookFilter['status']) => (status === 'all' ? sql`` : sql` AND status = ${status}`)
const textMatches = (q: string | undefined) => {
  const folded = q ? foldQuery(q) : ''
  return folded ? sql` AND search_text LIKE ${containsPattern(folded)} ESCAPE ${LIKE_ESCAPE}` : sql``
}

/**
 * Written messages and spoken ones (approved-or-not audio uploads, once confirmed) in one list,
 * newest first, ties broken by id: each branch walks its own (status, created_at, id) index, and
 * the keyset applies to both, so paging never repeats or skips an entry of either kind.
 */
function entries(filter: GuestbookFilter, cursor: UploadCursor | undefined, past: '<' | '>' = '<'): SQL {
  const where = sql`${statusIs(filter.status)}${textMatches(filter.q)}${keyset(cursor, past)}`
  return sql`SELECT id, 'text' AS type, status, author, text, NULL AS storage_key, NULL AS duration_sec, created_at, updated_at
    FROM guestbook_messages WHERE 1${where}
    UNION ALL
    SELECT id, 'audio' AS type, status, author, NULL AS text, storage_key, duration_sec, created_at, updated_at
    FROM uploads WHERE kind = 'audio' AND confirmed_at IS NOT NULL${where}`
}

function toEntry(raw: RawEntry): GuestbookEntryRow {
  return {
    id: raw.id,
    type: raw.type,
    status: raw.status,
    author: raw.author,
    text: raw.text,
    storageKey: raw.storage_key,
    durationSec: raw.duration_sec === null ? null : Number(raw.duration_sec),
    createdAt: new Date(Number(raw.created_at)),
    updatedAt: new Date(Number(raw.updated_at)),
  }
}

/** A page of entries plus one row (to know whether another page follows). */
export async function guestbookRows(filter: GuestbookFilter, cursor: UploadCursor | undefined, fetch: number): Promise<GuestbookEntryRow[]> {
  const rows = await useDb().all<RawEntry>(sql`${entries(filter, cursor)} ORDER BY created_at DESC, id DESC LIMIT ${fetch}`)
  return rows.map(toEntry)
}

/**
 * Every entry the filter matches, oldest first, one page of `pageSize` at a time: the exports read
 * the whole guestbook this way, however long, holding one page at most (keyset, so each page seeks
 * straight to where the last one ended).
 */
export async function* guestbookPagesOldestFirst(filter: GuestbookFilter, pageSize: number): AsyncGenerator<GuestbookEntryRow[]> {
  let after: UploadCursor | undefined
  for (;;) {
    const rows = (await useDb().all<RawEntry>(sql`${entries(filter, after, '>')} ORDER BY created_at ASC, id ASC LIMIT ${pageSize}`)).map(toEntry)
    if (rows.length > 0) yield rows
    if (rows.length < pageSize) return
    after = rows[rows.length - 1]!
  }
}

/** How many entries match the filter (the admin list's total). */
export async function countGuestbook(filter: GuestbookFilter): Promise<number> {
  const [row] = await useDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM (${entries(filter, undefined)})`)
  return Number(row?.n ?? 0)
}

/**
 * A spoken message is served as stored: confirm blanked its tags (title, comment, location) in
 * place, so its bytes carry nothing a guest did not mean to say.
 */
export function toGuestbookItem(row: GuestbookEntryRow): GuestbookItem {
  return {
    id: row.id,
    type: row.type,
    author: row.author,
    text: row.type === 'text' ? row.text : null,
    audioUrl: row.type === 'audio' && row.storageKey ? useMediaStore().publicUrl(row.storageKey) : null,
    durationSec: row.type === 'audio' ? row.durationSec : null,
    createdAt: row.createdAt.toISOString(),
  }
}

/** The public guestbook: approved messages, newest first, cursor-paged like the gallery. */
export async function listGuestbook(query: { cursor?: string, limit: number }): Promise<GuestbookPage> {
  const cursor = cursorFromQuery(query.cursor)
  const { rows, nextCursor } = cutPage(await guestbookRows({ status: 'approved' }, cursor, query.limit + 1), query.limit)
  return { items: rows.map(toGuestbookItem), nextCursor }
}
