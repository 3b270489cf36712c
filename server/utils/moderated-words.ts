import type { UploadStatus } from '#shared/enums'
import { searchTextOf } from '#shared/search'
import { getEventSettings } from './event-settings'
import { newId } from './storage/keys'
import { newUndoToken } from './uploads/undo'

/**
 * A guest's new words (a guestbook message, a comment) as they are stored: shown at once under
 * post-moderation, after an admin's approval under pre; the undo token's hash kept, the token
 * itself answered once to the device; the admin's search text folded from author and text.
 */
export async function newModeratedWords(body: { author: string, text: string }) {
  const { moderation } = await getEventSettings()
  const status: UploadStatus = moderation === 'post' ? 'approved' : 'pending'
  const undo = newUndoToken()
  const now = new Date()
  const row = {
    id: newId(),
    status,
    author: body.author,
    text: body.text,
    searchText: searchTextOf(body.author, body.text),
    undoTokenHash: undo.tokenHash,
    createdAt: now,
    updatedAt: now,
  }
  return { row, undoToken: undo.token }
}
