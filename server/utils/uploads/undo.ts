import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { useConfig } from '../config'
import { apiError } from '../http/errors'
import { deleteUpload } from './delete'

/**
 * A guest's undo: init gives the sending device a random token (a capability, not an account),
 * the server keeps only its SHA-256, and the token removes that one upload, and only for
 * UNDO_WINDOW_SECONDS after its confirm. After that only an admin can remove it.
 */

export function hashUndoToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A fresh token (256 random bits, URL-safe) and what the database keeps of it. */
export function newUndoToken(): { token: string, tokenHash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: hashUndoToken(token) }
}

/** What an undo is judged on: an upload, or a written guestbook message (its window starts when it is sent). */
type Undoable = Pick<UploadRow, 'undoTokenHash' | 'confirmedAt'>

/** Whether `token` is this upload's; constant-time, so timing tells nothing about the stored hash. */
export function tokenMatches(row: Undoable, token: string | undefined): boolean {
  if (!token || !row.undoTokenHash) return false
  const given = Buffer.from(hashUndoToken(token), 'hex')
  const stored = Buffer.from(row.undoTokenHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

/**
 * Refuses an undo of `row`: a token that is not this upload's (403, whatever the window, so that
 * someone without it learns nothing), then a window that is over (409).
 */
export function authorizeUndo(row: Undoable, token: string | undefined, now = new Date()): void {
  if (!tokenMatches(row, token)) throw apiError(403, ErrorCode.UNDO_TOKEN_INVALID, 'Invalid undo token')
  const windowMs = useConfig().UNDO_WINDOW_SECONDS * 1000
  if (!row.confirmedAt || now.getTime() - row.confirmedAt.getTime() > windowMs) {
    throw apiError(409, ErrorCode.UNDO_EXPIRED, 'Undo window over')
  }
}

/** Removes the upload as an admin delete does (delete.ts): record, every object, the cover if it was one. */
export function undoUpload(id: string, token: string | undefined) {
  return deleteUpload(id, row => authorizeUndo(row, token))
}
