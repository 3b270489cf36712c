import { eq } from 'drizzle-orm'
import { guestbookMessages, type GuestbookMessageRow } from '../../../db/schema'
import type { GuestbookPostBody, GuestbookPostResponse } from '#shared/schemas/guestbook'
import type { Db, DbTransaction as Tx } from '../db'
import { newModeratedWords } from '../moderated-words'

/** A written message from a guest: shown at once under post-moderation, after an admin's approval under pre. */
export async function postGuestbookMessage(body: GuestbookPostBody): Promise<GuestbookPostResponse> {
  const { row, undoToken } = await newModeratedWords(body)
  await useDb().insert(guestbookMessages).values(row)
  announceNewItem({ id: row.id, kind: 'message', author: body.author, status: row.status })
  return { id: row.id, status: row.status, undoToken, undoWindowSec: useConfig().UNDO_WINDOW_SECONDS }
}

export async function findGuestbookMessage(id: string, db: Db | Tx = useDb()): Promise<GuestbookMessageRow | undefined> {
  return db.select().from(guestbookMessages).where(eq(guestbookMessages.id, id)).get()
}

/**
 * The sending device removes its message within the undo window, with the token it was given:
 * the same rules and codes as an upload's undo (a message's window starts when it is sent).
 */
export async function undoGuestbookMessage(id: string, token: string | undefined): Promise<{ id: string, deleted: true }> {
  await useDb().transaction(async (tx) => {
    const row = await findGuestbookMessage(id, tx)
    if (!row) throw notFound()
    authorizeUndo({ undoTokenHash: row.undoTokenHash, confirmedAt: row.createdAt }, token)
    await tx.delete(guestbookMessages).where(eq(guestbookMessages.id, id))
  })
  return { id, deleted: true }
}
