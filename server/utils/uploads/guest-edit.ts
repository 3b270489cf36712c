import { eq } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type { GuestUploadPatch, GuestUploadPatchResponse } from '#shared/schemas/upload'
import { searchTextOf } from '#shared/search'

/**
 * The sending device corrects the name or message it sent with an upload: the bytes start moving
 * the moment a guest picks a file, and the words often come after. It holds the upload's undo
 * token, and may edit from init until the undo window closes: before confirm there is no window
 * yet (the upload is still on its way), after it the same window as the undo, with its codes.
 */
export async function editOwnUpload(id: string, token: string | undefined, patch: GuestUploadPatch, now = new Date()): Promise<GuestUploadPatchResponse> {
  return useDb().transaction(async (tx) => {
    const row = await tx.select().from(uploads).where(eq(uploads.id, id)).get()
    if (!row) throw notFound()
    if (row.confirmedAt) authorizeUndo(row, token, now)
    else if (!tokenMatches(row, token)) throw apiError(403, ErrorCode.UNDO_TOKEN_INVALID, 'Invalid undo token')
    // An edit older than one already applied (overtaken on the way) leaves the newer words.
    if (patch.revision !== undefined && patch.revision <= row.wordsRevision) return { id, author: row.author, message: row.message }
    const author = patch.author ?? row.author
    const message = patch.message ?? row.message
    const wordsRevision = patch.revision ?? row.wordsRevision
    if (author !== row.author || message !== row.message) {
      await tx.update(uploads)
        .set({ author, message, searchText: searchTextOf(author, message), wordsRevision, updatedAt: now })
        .where(eq(uploads.id, id))
    }
    else if (wordsRevision !== row.wordsRevision) {
      // The same words, newer: an older edit still on its way must not replace them.
      await tx.update(uploads).set({ wordsRevision }).where(eq(uploads.id, id))
    }
    return { id, author, message }
  })
}
