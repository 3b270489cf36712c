import { and, eq, isNull } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import {
  ACCEPTED_TYPES, kindOfContentType, PART_SIZE_BYTES, partLayout, partSize, SINGLE_PUT_MAX_BYTES,
} from '#shared/limits'
import type { ConfirmUploadResponse, InitUploadBody, InitUploadResponse, UploadTarget } from '#shared/schemas/upload'
import { searchTextOf } from '#shared/search'

/** What file-type may find in the first bytes of each kind (subtypes within a kind may differ). */
const SNIFFED_PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence', 'image/avif'])
const SNIFFED_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm', 'video/x-m4v', 'video/3gpp', 'video/x-matroska'])
const SNIFF_BYTES = 4100

export async function findUpload(id: string): Promise<UploadRow> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row) throw notFound()
  return row
}

/** Refuses a file the live event configuration does not accept, with the contract's code. */
export async function assertAcceptable(body: InitUploadBody) {
  if (!ACCEPTED_TYPES.includes(body.contentType)) {
    throw apiError(415, ErrorCode.UNSUPPORTED_TYPE, 'Unsupported type')
  }
  const kind = kindOfContentType(body.contentType)
  const settings = await getEventSettings()
  if (body.size > settings.maxFileSizeBytes) {
    throw apiError(413, ErrorCode.FILE_TOO_LARGE, 'File too large', { limit: settings.maxFileSizeBytes })
  }
  if (kind === 'video') {
    if (!settings.allowVideos) throw apiError(422, ErrorCode.VIDEOS_DISABLED, 'Videos disabled')
    if (body.durationSec == null) throw apiError(422, ErrorCode.DURATION_REQUIRED, 'Duration required')
    if (body.durationSec > settings.maxVideoDurationSec) {
      throw apiError(422, ErrorCode.VIDEO_TOO_LONG, 'Video too long', { limit: settings.maxVideoDurationSec })
    }
  }
  return kind
}

async function uploadTarget(row: UploadRow, partNumbers?: number[]): Promise<{ upload: UploadTarget, expiresAt: string }> {
  const store = useMediaStore()
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const expiresAt = new Date(Date.now() + ttl * 1000).toISOString()
  if (!row.multipartUploadId) {
    const { url, headers } = await store.presignPut(row.storageKey, { contentType: row.contentType, contentLength: row.size, expiresIn: ttl })
    return { expiresAt, upload: { type: 'single', method: 'PUT', url, headers } }
  }
  const { partCount } = partLayout(row.size)
  const numbers = partNumbers ?? Array.from({ length: partCount }, (_, index) => index + 1)
  const invalid = numbers.filter(n => n > partCount)
  if (invalid.length) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', { issues: [{ path: ['partNumbers'], message: `this upload has ${partCount} parts` }] })
  }
  const parts = await Promise.all([...new Set(numbers)].sort((a, b) => a - b).map(async partNumber => ({
    partNumber,
    size: partSize(row.size, partNumber),
    url: await store.presignPart(row.storageKey, row.multipartUploadId!, partNumber, partSize(row.size, partNumber), ttl),
  })))
  return { expiresAt, upload: { type: 'multipart', partSize: PART_SIZE_BYTES, parts } }
}

/**
 * The record comes first, so that whatever happens next is either undone here or found by the
 * sweeper: storage failing now deletes it again (503, nothing left); a crash leaves an unconfirmed
 * record that is swept with any bytes after a day.
 */
export async function initUpload(body: InitUploadBody): Promise<InitUploadResponse> {
  const kind = await assertAcceptable(body)
  await assertStorageReachable()
  const id = newId()
  const now = new Date()
  const multipart = body.size > SINGLE_PUT_MAX_BYTES
  const [row] = await useDb().insert(uploads).values({
    id,
    status: 'pending',
    kind,
    author: body.author,
    message: body.message,
    searchText: searchTextOf(body.author, body.message),
    fileName: body.fileName,
    contentType: body.contentType,
    size: body.size,
    durationSec: kind === 'video' ? body.durationSec ?? null : null,
    storageKey: newOriginalKey(id, kind, body.contentType),
    partCount: multipart ? partLayout(body.size).partCount : null,
    createdAt: now,
    updatedAt: now,
  }).returning()
  try {
    let current = row!
    if (multipart) {
      const multipartUploadId = await useMediaStore().createMultipart(current.storageKey, current.contentType)
      ;[current] = await useDb().update(uploads).set({ multipartUploadId }).where(eq(uploads.id, id)).returning() as [UploadRow]
    }
    const target = await uploadTarget(current)
    return { id, status: 'pending', kind, ...target }
  }
  catch (error) {
    await useDb().delete(uploads).where(eq(uploads.id, id))
    throw error
  }
}

export async function refreshUpload(id: string, partNumbers?: number[]) {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (!row.multipartUploadId && row.partCount) {
    // Parts already joined by a confirm that then failed its checks: nothing left to send.
    throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  }
  return { id, status: row.status, kind: row.kind, ...(await uploadTarget(row, row.multipartUploadId ? partNumbers : undefined)) }
}

/**
 * Removes the bytes, then the record, of an upload that failed its checks or was aborted. In that
 * order: a crash in between leaves an unconfirmed record, which the sweeper finds; storage that
 * refuses leaves a pending deletion, which the sweeper retries.
 */
async function discard(row: UploadRow) {
  await deleteOwnedObjects(row)
  await useDb().delete(uploads).where(eq(uploads.id, row.id))
}

function sniffedKindMatches(kind: UploadRow['kind'], mime: string | undefined): boolean {
  if (!mime) return false
  return kind === 'photo' ? SNIFFED_PHOTO_TYPES.has(mime) : SNIFFED_VIDEO_TYPES.has(mime)
}

async function completeParts(row: UploadRow): Promise<UploadRow> {
  const store = useMediaStore()
  const expected = partLayout(row.size).partCount
  // S3 forgets an upload once completed ("no such upload"): then the object itself decides.
  const parts = await store.listParts(row.storageKey, row.multipartUploadId!).catch((error) => {
    if (error instanceof StorageUnavailableError) throw error
    return []
  })
  if (parts.length === 0 && (await store.head(row.storageKey))?.size === row.size) {
    // Completed by an earlier confirm that stopped before recording it (crash, timeout).
    const [updated] = await useDb().update(uploads).set({ multipartUploadId: null }).where(eq(uploads.id, row.id)).returning()
    return updated!
  }
  const sizes = new Map(parts.map(part => [part.partNumber, part.size]))
  const missing: number[] = []
  for (let n = 1; n <= expected; n++) {
    if (sizes.get(n) !== partSize(row.size, n)) missing.push(n)
  }
  if (missing.length) {
    throw apiError(409, ErrorCode.OBJECT_MISSING, 'Object missing', { missingParts: missing })
  }
  await store.completeMultipart(row.storageKey, row.multipartUploadId!, parts.filter(part => part.partNumber <= expected))
  const [updated] = await useDb().update(uploads).set({ multipartUploadId: null }).where(eq(uploads.id, row.id)).returning()
  return updated!
}

async function verifyAndConfirm(id: string): Promise<ConfirmUploadResponse> {
  let row = await findUpload(id)
  if (row.confirmedAt) return { id, status: row.status }
  const store = useMediaStore()
  if (row.multipartUploadId) row = await completeParts(row)

  const object = await store.head(row.storageKey)
  if (!object) throw apiError(409, ErrorCode.OBJECT_MISSING, 'Object missing')
  const head = await store.readRange(row.storageKey, 0, SNIFF_BYTES - 1)
  const sniffed = await fileTypeFromBuffer(head)
  if (object.size !== row.size || !sniffedKindMatches(row.kind, sniffed?.mime)) {
    await discard(row)
    throw apiError(422, ErrorCode.CONTENT_MISMATCH, 'Content mismatch', {
      declaredSize: row.size, storedSize: object.size, detectedType: sniffed?.mime ?? null,
    })
  }

  const posterKey = await acceptPoster(row)
  await store.persist?.(row.storageKey)
  const { moderation } = await getEventSettings()
  const now = new Date()
  const [confirmed] = await useDb().update(uploads)
    .set({ status: moderation === 'post' ? 'approved' : 'pending', posterKey, confirmedAt: now, updatedAt: now })
    .where(and(eq(uploads.id, id), isNull(uploads.confirmedAt)))
    .returning()
  if (!confirmed) {
    // Another instance confirmed it between our read and our write: same answer as theirs.
    const winner = await findUpload(id)
    return { id, status: winner.status }
  }
  scheduleDerivation(id)
  return { id, status: confirmed.status }
}

// Concurrent confirms of one upload in this process share one run: exactly one completes the
// multipart upload and writes; the others get its answer (or its error).
const inFlight = new Map<string, Promise<ConfirmUploadResponse>>()

export function confirmUpload(id: string): Promise<ConfirmUploadResponse> {
  let running = inFlight.get(id)
  if (!running) {
    running = verifyAndConfirm(id).finally(() => inFlight.delete(id))
    inFlight.set(id, running)
  }
  return running
}

export async function abortUpload(id: string) {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  await discard(row)
  return { id, aborted: true as const }
}
