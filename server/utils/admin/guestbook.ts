import { and, eq, inArray, ne } from 'drizzle-orm'
import type { z } from 'zod'
import { guestbookMessages, uploads } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type {
  AdminGuestbookItem, AdminGuestbookPage, adminGuestbookPatchSchema, adminGuestbookQuerySchema, guestbookBulkSchema,
} from '#shared/schemas/guestbook'
import type { BulkResult } from '#shared/schemas/admin'
import { searchTextOf } from '#shared/search'
import { cursorFromQuery, cutPage } from '../paging/keyset'
import { countGuestbook, guestbookRows, toGuestbookItem, type GuestbookEntryRow } from '../guestbook/list'

export type AdminGuestbookQuery = z.output<typeof adminGuestbookQuerySchema>
type AdminGuestbookPatch = z.output<typeof adminGuestbookPatchSchema>
type GuestbookBulk = z.output<typeof guestbookBulkSchema>

function toAdminGuestbookItem(row: GuestbookEntryRow): AdminGuestbookItem {
  return { ...toGuestbookItem(row), status: row.status, updatedAt: row.updatedAt.toISOString() }
}

/**
 * The moderation list: written and spoken messages, newest first, with the uploads list's status
 * filter, search and paging. A guestbook holds hundreds of messages, not an upload's tens of
 * thousands: the search is a plain LIKE over the folded text, and the total an exact count.
 */
export async function listAdminGuestbook(query: AdminGuestbookQuery): Promise<AdminGuestbookPage> {
  const cursor = cursorFromQuery(query.cursor)
  const filter = { status: query.status, q: query.q }
  const [rows, total] = await Promise.all([guestbookRows(filter, cursor, query.limit + 1), countGuestbook(filter)])
  const page = cutPage(rows, query.limit)
  return { items: page.rows.map(toAdminGuestbookItem), nextCursor: page.nextCursor, total }
}

/** One entry as the admin sees it, or 404 (an upload still being sent is nobody's message yet). */
async function adminEntry(id: string): Promise<AdminGuestbookItem> {
  const written = await findGuestbookMessage(id)
  if (written) {
    return toAdminGuestbookItem({ ...written, type: 'text', storageKey: null, durationSec: null })
  }
  const spoken = await findConfirmedAudio(id)
  return toAdminGuestbookItem({ ...spoken, type: 'audio', text: null })
}

async function findConfirmedAudio(id: string) {
  const row = await findConfirmedUpload(id)
  if (row.kind !== 'audio') throw notFound()
  return row
}

/** Edits status, author and/or text of a written message; status and author of a spoken one. */
export async function patchGuestbookEntry(id: string, patch: AdminGuestbookPatch): Promise<AdminGuestbookItem> {
  const written = await findGuestbookMessage(id)
  if (written) {
    const author = patch.author ?? written.author
    const text = patch.text ?? written.text
    const status = patch.status ?? written.status
    if (author !== written.author || text !== written.text || status !== written.status) {
      await useDb().update(guestbookMessages)
        .set({ author, text, status, searchText: searchTextOf(author, text), updatedAt: new Date() })
        .where(eq(guestbookMessages.id, id))
    }
    return adminEntry(id)
  }
  await findConfirmedAudio(id)
  if (patch.text !== undefined) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', {
      issues: [{ path: ['text'], code: 'custom', message: 'a spoken message has no text' }],
    })
  }
  if (patch.author !== undefined) await patchUpload(id, { author: patch.author })
  if (patch.status === 'approved' || patch.status === 'rejected') await setUploadStatus(id, patch.status)
  if (patch.status === 'pending') {
    await useDb().update(uploads).set({ status: 'pending', updatedAt: new Date() }).where(and(eq(uploads.id, id), ne(uploads.status, 'pending')))
  }
  return adminEntry(id)
}

/** Removes a message: a written one's row, or a spoken one as an admin deletes any upload (its bytes too). */
export async function deleteGuestbookEntry(id: string): Promise<{ id: string, deleted: true }> {
  const removed = await useDb().delete(guestbookMessages).where(eq(guestbookMessages.id, id)).returning({ id: guestbookMessages.id })
  if (removed.length > 0) return { id, deleted: true }
  await findConfirmedAudio(id)
  return deleteUpload(id)
}

/**
 * One action over many messages. The written ones change in one transaction, all or none; the
 * spoken ones go through the uploads' bulk action (its own transaction, which removes their
 * bytes after it commits). Ids of neither are reported, not refused.
 */
export async function bulkGuestbook({ ids, action }: GuestbookBulk): Promise<BulkResult> {
  const requested = [...new Set(ids)]
  const now = new Date()
  const written = await useDb().transaction(async (tx) => {
    const found = (await tx.select({ id: guestbookMessages.id }).from(guestbookMessages).where(inArray(guestbookMessages.id, requested))).map(row => row.id)
    if (found.length === 0) return found
    if (action === 'delete') {
      await tx.delete(guestbookMessages).where(inArray(guestbookMessages.id, found))
      return found
    }
    const status = action === 'approve' ? 'approved' : 'rejected'
    await tx.update(guestbookMessages).set({ status, updatedAt: now })
      .where(and(inArray(guestbookMessages.id, found), ne(guestbookMessages.status, status)))
    return found
  })
  const others = requested.filter(id => !written.includes(id))
  const audioIds = others.length === 0
    ? []
    : (await useDb().select({ id: uploads.id }).from(uploads).where(and(inArray(uploads.id, others), eq(uploads.kind, 'audio')))).map(row => row.id)
  const spoken = audioIds.length === 0 ? [] : (await bulkUploads({ ids: audioIds, action })).processed
  const done = new Set([...written, ...spoken])
  return { action, processed: requested.filter(id => done.has(id)), notFound: requested.filter(id => !done.has(id)) }
}

/** The dashboard's count of messages, written and spoken, by status. */
export async function guestbookCounts(): Promise<{ total: number, pending: number, approved: number, rejected: number }> {
  const [pending, approved, rejected] = await Promise.all(
    (['pending', 'approved', 'rejected'] as const).map(status => countGuestbook({ status })),
  )
  return { total: pending! + approved! + rejected!, pending: pending!, approved: approved!, rejected: rejected! }
}
