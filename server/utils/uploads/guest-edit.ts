import { eq } from 'drizzle-orm'
import { eventSettings, uploads, type UploadRow } from '../../../db/schema'
import type { ModerationMode, UploadStatus } from '#shared/enums'
import { ErrorCode } from '#shared/errors'
import { EVENT_DEFAULTS } from '#shared/limits'
import type { GuestUploadPatch, GuestUploadPatchResponse } from '#shared/schemas/upload'
import { searchTextOf } from '#shared/search'

/**
 * The sending device corrects the name or message it sent with an upload: the bytes start moving
 * the moment a guest picks a file, and the words often come after. It holds the upload's undo
 * token, and may edit from init until the undo window closes: before confirm there is no window
 * yet (the upload is still on its way), after it the same window as the undo, with its codes.
 *
 * The couple's decisions stand: words an admin has written are theirs (409 WORDS_LOCKED), and
 * words the couple approved under pre-moderation are not replaced by unseen ones in public.
 */
export async function editOwnUpload(id: string, token: string | undefined, patch: GuestUploadPatch, now = new Date()): Promise<GuestUploadPatchResponse> {
  return useDb().transaction(async (tx) => {
    const row = await tx.select().from(uploads).where(eq(uploads.id, id)).get()
    if (!row) throw notFound()
    if (row.confirmedAt) authorizeUndo(row, token, now)
    else if (!tokenMatches(row, token)) throw apiError(403, ErrorCode.UNDO_TOKEN_INVALID, 'Invalid undo token')
    if (row.wordsLocked) {
      throw apiError(409, ErrorCode.WORDS_LOCKED, 'Words locked', { author: row.author, message: row.message })
    }
    // An edit older than one already applied (overtaken on the way) leaves the newer words.
    if (patch.revision !== undefined && patch.revision <= row.wordsRevision) {
      return { id, status: row.status, author: row.author, message: row.message }
    }
    const author = patch.author ?? row.author
    const message = patch.message ?? row.message
    const wordsRevision = patch.revision ?? row.wordsRevision
    if (author === row.author && message === row.message) {
      // The same words, newer: an older edit still on its way must not replace them.
      if (wordsRevision !== row.wordsRevision) await tx.update(uploads).set({ wordsRevision }).where(eq(uploads.id, id))
      return { id, status: row.status, author, message }
    }
    const settings = await tx.select({ moderation: eventSettings.moderation }).from(eventSettings).get()
    const status = statusAfterGuestEdit(row, settings?.moderation ?? EVENT_DEFAULTS.moderation)
    await tx.update(uploads)
      .set({ author, message, status, searchText: searchTextOf(author, message), wordsRevision, updatedAt: now })
      .where(eq(uploads.id, id))
    return { id, status, author, message }
  })
}

/**
 * What new words do to a confirmed upload's moderation. Under pre-moderation the couple approved
 * these words, not the new ones: the upload waits for them again, out of the gallery and off the
 * screen, as a new upload would. Under post-moderation a new upload goes live at once, and so do
 * new words. A rejection stands either way (editing must not be a way back in), and a pending
 * upload is still pending.
 */
function statusAfterGuestEdit(row: Pick<UploadRow, 'status' | 'confirmedAt'>, moderation: ModerationMode): UploadStatus {
  if (row.confirmedAt && row.status === 'approved' && moderation === 'pre') return 'pending'
  return row.status
}
