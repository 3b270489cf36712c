import { and, eq, inArray, isNotNull, isNull, ne, or } from 'drizzle-orm'
import type { z } from 'zod'
import { eventSettings, uploads, type UploadRow, isPublicUpload } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type {
  AdminUpload, AdminUploadPage, adminUploadPatchSchema, adminUploadsQuerySchema, BulkAction, BulkResult,
} from '#shared/schemas/admin'
import type { AdminEventConfig } from '#shared/schemas/event'
import { searchTextOf } from '#shared/search'
import type { AdminListRow } from './search'
import { clearCoverOf } from '../event-settings'
import { deleteRecords, removeDeletedObjects } from '../uploads/delete'
import { findConfirmedUpload } from '../uploads/find'
import { cursorFromQuery, cutPage } from '../paging/keyset'
import { NO_REACTIONS, reactionCounts, type ReactionCounts } from '../reactions/counts'
import { assertMomentExists } from '../moments/assign'
import { findUploadsByHearts } from './hearts-order'

export type AdminUploadsQuery = z.output<typeof adminUploadsQuerySchema>
export type AdminUploadPatch = z.output<typeof adminUploadPatchSchema>

/** The admin view of an upload: every list item and every single-upload answer. */
export async function toAdminUpload(row: AdminListRow, coverUploadId: string | null, reactions: ReactionCounts = NO_REACTIONS): Promise<AdminUpload> {
  const [media, original] = await Promise.all([adminMediaUrls(row), originalUrl(row)])
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    author: row.author,
    message: row.message,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    durationSec: row.durationSec,
    url: media.url,
    thumbUrl: media.thumbUrl,
    thumb2xUrl: media.thumb2xUrl,
    publicImage: adminPublicImageOf(row),
    display: row.kind === 'video' ? row.display ?? 'original' : null,
    videoCodec: row.kind === 'video' ? row.videoCodec : null,
    originalUrl: original,
    isCover: row.id === coverUploadId,
    hearts: reactions.hearts,
    commentCount: reactions.commentCount,
    momentId: row.momentId,
    takenAt: row.takenAt?.toISOString() ?? null,
    challengeId: row.challengeId,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  }
}

async function adminView(row: UploadRow): Promise<AdminUpload> {
  const [{ coverUploadId }, counts] = await Promise.all([getEventSettings(), reactionCounts([row.id])])
  return toAdminUpload(row, coverUploadId, counts.get(row.id))
}

/** Filters of the admin list other than the text (`q` is searched by `findAdminUploads`). */
function adminFilter(query: AdminUploadsQuery) {
  return and(
    isNotNull(uploads.confirmedAt),
    query.status === 'all' ? undefined : eq(uploads.status, query.status),
    query.kind ? eq(uploads.kind, query.kind) : undefined,
    query.moment ? eq(uploads.momentId, query.moment) : undefined,
    query.challenge ? eq(uploads.challengeId, query.challenge) : undefined,
  )
}

export async function listAdminUploads(query: AdminUploadsQuery): Promise<AdminUploadPage> {
  if (query.sort === 'hearts') return listAdminUploadsByHearts(query)
  const cursor = cursorFromQuery(query.cursor)
  const db = useDb()
  // The page and its total come from one batch, one snapshot: they agree.
  const [found, settings] = await Promise.all([
    findAdminUploads(db, {
      filter: adminFilter(query),
      narrowed: query.status !== 'all' || query.kind !== undefined || query.moment !== undefined || query.challenge !== undefined,
      q: query.q,
      cursor,
      fetch: query.limit + 1,
    }),
    db.select({ coverUploadId: eventSettings.coverUploadId }).from(eventSettings).get(),
  ])
  const page = cutPage(found.rows, query.limit)
  const coverUploadId = settings?.coverUploadId ?? null
  const counts = await reactionCounts(page.rows.map(row => row.id))
  return {
    items: await Promise.all(page.rows.map(row => toAdminUpload(row, coverUploadId, counts.get(row.id)))),
    nextCursor: page.nextCursor,
    total: found.total,
    totalIsLowerBound: found.totalIsLowerBound,
  }
}

/** The admin list most hearted first (server/utils/admin/hearts-order.ts). */
async function listAdminUploadsByHearts(query: AdminUploadsQuery): Promise<AdminUploadPage> {
  const db = useDb()
  const [found, settings] = await Promise.all([
    findUploadsByHearts(db, adminFilter(query), query.q, query.cursor, query.limit),
    db.select({ coverUploadId: eventSettings.coverUploadId }).from(eventSettings).get(),
  ])
  const counts = await reactionCounts(found.rows.map(row => row.id))
  const coverUploadId = settings?.coverUploadId ?? null
  return {
    items: await Promise.all(found.rows.map(row => toAdminUpload(row, coverUploadId, counts.get(row.id)))),
    nextCursor: found.nextCursor,
    total: found.total,
    totalIsLowerBound: false,
  }
}

/**
 * Edits author and/or message (already trimmed and bounded by the schema, as at init). Words the
 * admin changed are locked against the sending device's edits (server/utils/uploads/guest-edit.ts);
 * an edit that changes nothing locks nothing, and neither does a change of moment.
 */
export async function patchUpload(id: string, patch: AdminUploadPatch): Promise<AdminUpload> {
  const row = await useDb().transaction(async (tx) => {
    const current = await findConfirmedUpload(id, tx)
    if (patch.momentId) await assertMomentExists(patch.momentId, tx)
    const author = patch.author ?? current.author
    const message = patch.message ?? current.message
    const momentId = patch.momentId === undefined ? current.momentId : patch.momentId
    const wordsChanged = author !== current.author || message !== current.message
    if (!wordsChanged && momentId === current.momentId) return current
    const words = wordsChanged ? { author, message, searchText: searchTextOf(author, message), wordsLocked: true } : {}
    const [updated] = await tx.update(uploads)
      .set({ ...words, momentId, updatedAt: new Date() })
      .where(eq(uploads.id, id))
      .returning()
    return updated!
  })
  return adminView(row)
}

/** Approve or reject from any state; repeating it changes nothing (not even `updatedAt`). */
export async function setUploadStatus(id: string, status: 'approved' | 'rejected'): Promise<AdminUpload> {
  const now = new Date()
  const row = await useDb().transaction(async (tx) => {
    const current = await findConfirmedUpload(id, tx)
    if (status === 'rejected') await clearCoverOf(tx, [id], now)
    if (current.status === status) return current
    const [updated] = await tx.update(uploads).set({ status, updatedAt: now }).where(eq(uploads.id, id)).returning()
    return updated!
  })
  return adminView(row)
}

/**
 * One action over many uploads in one transaction: every id found changes, or (on any error)
 * none does. Unknown and unconfirmed ids are reported, not refused. Objects of deleted uploads
 * are removed once the transaction has committed.
 */
export async function bulkUploads(body: BulkAction): Promise<BulkResult> {
  const { ids, action } = body
  const requested = [...new Set(ids)]
  const now = new Date()
  const { processed, keys } = await useDb().transaction(async (tx) => {
    if (body.action === 'moment' && body.momentId) await assertMomentExists(body.momentId, tx)
    const rows = await tx.select().from(uploads)
      .where(and(inArray(uploads.id, requested), isNotNull(uploads.confirmedAt)))
    const found = new Set(rows.map(row => row.id))
    const processed = requested.filter(id => found.has(id))
    if (processed.length === 0) return { processed, keys: [] }
    if (action === 'delete') return { processed, keys: await deleteRecords(tx, rows, now) }
    if (body.action === 'moment') {
      await tx.update(uploads).set({ momentId: body.momentId, updatedAt: now })
        .where(and(inArray(uploads.id, processed), body.momentId ? or(isNull(uploads.momentId), ne(uploads.momentId, body.momentId)) : isNotNull(uploads.momentId)))
      return { processed, keys: [] as string[] }
    }
    const status = action === 'approve' ? 'approved' : 'rejected'
    await tx.update(uploads).set({ status, updatedAt: now })
      .where(and(inArray(uploads.id, processed), ne(uploads.status, status)))
    if (status === 'rejected') await clearCoverOf(tx, processed, now)
    return { processed, keys: [] as string[] }
  })
  if (action === 'delete') await removeDeletedObjects(processed, keys)
  const done = new Set(processed)
  return { action, processed, notFound: requested.filter(id => !done.has(id)) }
}

/**
 * Makes an approved photo the event's cover; anything else is 409 NOT_ELIGIBLE, and so is a photo
 * that no display image could be made of (the public is never shown an original).
 */
export async function setCover(id: string): Promise<AdminEventConfig> {
  await getEventSettings() // the configuration row exists before the transaction writes it
  const settings = await useDb().transaction(async (tx) => {
    const upload = await findConfirmedUpload(id, tx)
    const undisplayable = upload.derivedAt !== null && upload.displayKey === null
    if (upload.kind !== 'photo' || !isPublicUpload(upload) || undisplayable) {
      throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'Not eligible')
    }
    // The table holds the single configuration row.
    const [row] = await tx.update(eventSettings).set({ coverUploadId: id, updatedAt: new Date() }).returning()
    return row!
  })
  return adminEventConfig(settings)
}
