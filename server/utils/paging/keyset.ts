/**
 * Keyset paging, generic to every list (the gallery, "my photos", the guestbook, the admin's):
 * features use it and it uses none of them.
 */
import { desc, sql, type SQL } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import { decodeUploadCursor, encodeUploadCursor, type UploadCursor } from '#shared/cursor'
import { ErrorCode } from '#shared/errors'
import { apiError } from '../http/errors'

/** The `cursor` query value, decoded; one this service did not make is 400 INVALID_REQUEST. */
export function cursorFromQuery(value: string | undefined): UploadCursor | undefined {
  if (value === undefined) return undefined
  const cursor = decodeUploadCursor(value)
  if (!cursor) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', {
      issues: [{ path: ['cursor'], code: 'invalid_cursor', message: 'not a cursor given by this service' }],
    })
  }
  return cursor
}

/**
 * Rows after the cursor in newest-first order. A row-value comparison, so SQLite seeks straight
 * to the position in an index ending in (created_at, id) instead of scanning what came before.
 */
export function olderThan(cursor: UploadCursor | undefined): SQL | undefined {
  if (!cursor) return undefined
  return keysetBefore(cursor.createdAt.getTime(), cursor.id)
}

/**
 * An upload's position (created_at, id) compared with another's, as one row value: SQLite seeks
 * straight to it in an index ending in (created_at, id). The values are given as they are
 * (numbers, or placeholders of a prepared statement).
 */
export function keysetCompare(operator: '<' | '>' | '>=', createdAt: unknown, id: unknown): SQL {
  return sql`(${uploads.createdAt}, ${uploads.id}) ${sql.raw(operator)} (${createdAt}, ${id})`
}

/** Older than the position: the next rows in newest-first order. */
export function keysetBefore(createdAt: unknown, id: unknown): SQL {
  return keysetCompare('<', createdAt, id)
}

/** Newest first, ties broken by id, so a page boundary is one exact position. */
export const newestFirst = [desc(uploads.createdAt), desc(uploads.id)] as const

/** Cuts the `limit + 1` rows a page query fetched into the page and the cursor to the next one. */
export function cutPage<T extends { createdAt: Date, id: string }>(rows: T[], limit: number): { rows: T[], nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null }
  const page = rows.slice(0, limit)
  return { rows: page, nextCursor: encodeUploadCursor(page[page.length - 1]!) }
}
