import { eq } from 'drizzle-orm'
import type { SQLiteInsertValue } from 'drizzle-orm/sqlite-core'
import { uploads, type EventSettingsRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { ACCEPTED_TYPES, kindOfContentType, partLayout, SINGLE_PUT_MAX_BYTES } from '#shared/limits'
import type { InitAnswer, InitUploadBody } from '#shared/schemas/upload'
import { searchTextOf } from '#shared/search'
import { useConfig } from '../config'
import { builtOnce, storedValue, useDb } from '../db'
import { getEventSettings } from '../event-settings'
import { assertGuestSlot } from '../guests/guest-limit'
import { apiError } from '../http/errors'
import { assertStorageReachable } from '../storage/health'
import { newId, newOriginalKey } from '../storage/keys'
import { useMediaStore } from '../storage/use-media-store'
import { displayCopyMaker } from './display-copy'
import { challengeAtInit } from '../challenges/assign'
import { momentAtInit } from '../moments/assign'
import { stepsOfKind } from './kind-steps'
import { isClientKeyTaken, replayInit } from './init-replay'
import { newUndoToken } from './undo'
import { signUploadTarget } from './upload-target'

/** Refuses a file the live event configuration does not accept, with the contract's code. */
export function assertAcceptable(body: InitUploadBody, settings: EventSettingsRow) {
  if (!ACCEPTED_TYPES.includes(body.contentType)) {
    throw apiError(415, ErrorCode.UNSUPPORTED_TYPE, 'Unsupported type')
  }
  const kind = kindOfContentType(body.contentType)
  if (body.size > settings.maxFileSizeBytes) {
    throw apiError(413, ErrorCode.FILE_TOO_LARGE, 'File too large', { limit: settings.maxFileSizeBytes })
  }
  // A kind another feature owns has its own rules (a spoken guestbook message: its switch and length limit).
  stepsOfKind(kind)?.atInit(body, settings)
  if (kind === 'video') {
    if (!settings.allowVideos) throw apiError(422, ErrorCode.VIDEOS_DISABLED, 'Videos disabled')
    if (body.durationSec == null) throw apiError(422, ErrorCode.DURATION_REQUIRED, 'Duration required')
    if (body.durationSec > settings.maxVideoDurationSec) {
      throw apiError(422, ErrorCode.VIDEO_TOO_LONG, 'Video too long', { limit: settings.maxVideoDurationSec })
    }
  }
  return kind
}

/** The columns init writes, each bound to the prepared insert below. */
const INIT_COLUMNS = [
  'id', 'status', 'kind', 'author', 'message', 'searchText', 'fileName', 'contentType', 'size', 'durationSec',
  'storageKey', 'partCount', 'contentHash', 'undoTokenHash', 'guestId', 'clientKey', 'momentId', 'takenAt',
  'challengeId', 'createdAt', 'updatedAt',
] as const satisfies readonly (keyof typeof uploads.$inferInsert)[]
type InitRow = { [Column in typeof INIT_COLUMNS[number]]-?: (typeof uploads.$inferInsert)[Column] }

// Built once: building a 21-column insert was a tenth of an init's work in a burst. Each value is
// bound as stored (`storedValue`), encoded by its column as drizzle's own insert does.
const insertInit = builtOnce(db => db.insert(uploads)
  .values(Object.fromEntries(INIT_COLUMNS.map(column => [column, storedValue(column)])) as SQLiteInsertValue<typeof uploads>)
  .prepare())
const boundInit = (row: InitRow) => Object.fromEntries(INIT_COLUMNS.map(column =>
  [column, row[column] == null ? null : uploads[column].mapToDriverValue(row[column] as never)]))

/**
 * The record comes first, so that whatever happens next is either undone here or found by the
 * sweeper: storage failing now deletes it again (503, nothing left); a crash leaves an unconfirmed
 * record that is swept with any bytes after a day.
 */
export async function initUpload(body: InitUploadBody, guestId: string | null = null, given?: EventSettingsRow): Promise<{ answer: InitAnswer, created: boolean }> {
  const settings = given ?? await getEventSettings()
  const kind = assertAcceptable(body, settings)
  const takenAt = body.takenAt ? new Date(body.takenAt) : null
  const momentId = await momentAtInit(body.momentId, takenAt)
  const challengeId = await challengeAtInit(body.challengeId)
  await assertStorageReachable()
  const id = newId()
  const now = new Date()
  const multipart = body.size > SINGLE_PUT_MAX_BYTES
  const undo = newUndoToken()
  const row = {
    id,
    status: 'pending',
    kind,
    author: body.author,
    message: body.message,
    searchText: searchTextOf(body.author, body.message),
    fileName: body.fileName,
    contentType: body.contentType,
    size: body.size,
    durationSec: kind === 'photo' ? null : body.durationSec ?? null,
    storageKey: newOriginalKey(id, kind, body.contentType),
    partCount: multipart ? partLayout(body.size).partCount : null,
    contentHash: body.hash ?? null,
    undoTokenHash: undo.tokenHash,
    // A spoken guestbook message is no shot of the disposable camera: it neither counts against the
    // per-guest limit nor lists among "my photos" (the guestbook has its own undo).
    guestId: kind === 'audio' ? null : guestId,
    clientKey: body.clientKey ?? null,
    momentId,
    takenAt,
    challengeId,
    createdAt: now,
    updatedAt: now,
  } satisfies InitRow
  // Written as given, so not read back: the whole row returned cost a burst more than the insert.
  try {
    await insertInit().run(boundInit(row))
  }
  catch (error) {
    // The same file's init from the phone's other sender landed first: that upload is the answer.
    const again = isClientKeyTaken(error) ? await replayInit(body) : null
    if (again) return { answer: again, created: false }
    throw error
  }
  try {
    await assertGuestSlot(row, settings.maxUploadsPerGuest)
    let multipartUploadId: string | null = null
    if (multipart) {
      multipartUploadId = await useMediaStore().createMultipart(row.storageKey, row.contentType)
      await useDb().update(uploads).set({ multipartUploadId }).where(eq(uploads.id, id))
    }
    const target = await signUploadTarget({ ...row, multipartUploadId })
    const answer = {
      id, status: 'pending' as const, kind, ...target, undoToken: undo.token, undoWindowSec: useConfig().UNDO_WINDOW_SECONDS,
      ...(kind === 'video' ? { displayCopy: displayCopyMaker() } : {}),
    }
    return { answer, created: true }
  }
  catch (error) {
    await useDb().delete(uploads).where(eq(uploads.id, id))
    throw error
  }
}
