import { and, eq, isNull, sql } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { SINGLE_PUT_MAX_BYTES } from '#shared/limits'
import type { InitAnswer, InitUploadBody } from '#shared/schemas/upload'
import { searchTextOf } from '#shared/search'
import { useConfig } from '../config'
import { builtOnce, useDb } from '../db'
import { apiError } from '../http/errors'
import { displayCopyMaker } from './display-copy'
import { newUndoToken } from './undo'
import { signUploadTarget } from './upload-target'

// Built once: every init from the page carries its key.
const keyTaken = builtOnce(db => db.select({ id: uploads.id }).from(uploads).where(eq(uploads.clientKey, sql.placeholder('clientKey'))).prepare())
const uploadOfKey = builtOnce(db => db.select().from(uploads).where(eq(uploads.clientKey, sql.placeholder('clientKey'))).prepare())

/**
 * An init that comes again with a `clientKey` the server knows: the first answer was lost on the
 * way (a venue's Wi-Fi drops it after the server wrote the record), or another sender on the same
 * phone (the page, its service worker) got there first. It is answered with that upload, never a
 * second one, so a file arrives once however often its init is tried. Null: a key not seen yet.
 *
 * A new undo token replaces the first: the sender asking again never received it (a sender that
 * had would resume with the upload's id, not init). Words sent again are the newer ones.
 */
export async function replayInit(body: InitUploadBody): Promise<InitAnswer | null> {
  if (!body.clientKey) return null
  // Asked first of a single column: nearly every key is new, and the whole row cost an init twice as much.
  if (!await keyTaken().get({ clientKey: body.clientKey })) return null
  const row = await uploadOfKey().get({ clientKey: body.clientKey })
  if (!row) return null
  if (row.size !== body.size || row.contentType !== body.contentType) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', { issues: [{ path: ['clientKey'], message: 'already given to another file' }] })
  }
  // Sent and confirmed meanwhile by the phone's other sender: it is there already.
  if (row.confirmedAt) return { id: row.id, kind: row.kind, duplicate: true }
  // The first init is still opening its multipart upload (storage answering slowly): try again soon.
  if (row.size > SINGLE_PUT_MAX_BYTES && !row.multipartUploadId) {
    throw apiError(503, ErrorCode.STORAGE_UNAVAILABLE, 'Storage unavailable')
  }
  const undo = newUndoToken()
  const updated = await useDb().update(uploads)
    .set({ author: body.author, message: body.message, searchText: searchTextOf(body.author, body.message), undoTokenHash: undo.tokenHash, updatedAt: new Date() })
    .where(and(eq(uploads.id, row.id), isNull(uploads.confirmedAt)))
    .returning({ id: uploads.id })
  // Confirmed between the read and the write: there already. Gone (its first init undone): a new one.
  if (updated.length === 0) return replayInit(body)
  const target = await signUploadTarget(row)
  return {
    id: row.id, status: 'pending', kind: row.kind, ...target, undoToken: undo.token, undoWindowSec: useConfig().UNDO_WINDOW_SECONDS,
    ...(row.kind === 'video' ? { displayCopy: displayCopyMaker() } : {}),
  }
}

/** The insert of a second upload with a key already stored (two inits of one file at once). */
export function isClientKeyTaken(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message.includes('uploads.client_key')) return true
  }
  return false
}
