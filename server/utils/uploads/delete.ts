import { inArray } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { useDb, type DbTransaction } from '../db'
import { clearCoverOf } from '../event-settings'
import { deleteQueuedObjects, queueDeletions } from '../storage/deletions'
import { ownedKeys } from '../storage/keys'
import { settleDerivations } from './derivation-queue'
import { findConfirmedUpload } from './find'

/*
 * Deleting a confirmed upload: its record, every object it owns in storage, and the event's cover
 * when it was the cover. The admin (one, or many at once) and the guest's undo delete the same way.
 */

/**
 * Deletes records and, in the same transaction, queues their stored objects for deletion. The
 * caller removes the objects right after the commit (`removeDeletedObjects`); if the process dies
 * first, or storage refuses, the sweeper finds the queued keys later. No commit can leave an
 * object nobody knows of.
 */
export async function deleteRecords(tx: DbTransaction, rows: UploadRow[], now: Date): Promise<string[]> {
  const keys = rows.flatMap(ownedKeys)
  await queueDeletions(tx, keys, now)
  const ids = rows.map(row => row.id)
  await tx.delete(uploads).where(inArray(uploads.id, ids))
  await clearCoverOf(tx, ids, now)
  return keys
}

/**
 * Removes committed deletions' objects now; what storage refuses stays queued for the sweeper.
 * A derivation of one of them still running here finishes first: it may write its images after
 * the record is gone, and those keys must not be taken off the queue before they are removed.
 */
export async function removeDeletedObjects(ids: string[], keys: string[]): Promise<void> {
  await settleDerivations(ids)
  await deleteQueuedObjects(keys)
}

/**
 * Deletes one confirmed upload (404 when there is none). `authorize` may refuse the upload found,
 * inside the transaction, so nothing is deleted then (a guest's undo: undo.ts).
 */
export async function deleteUpload(id: string, authorize?: (row: UploadRow) => void): Promise<{ id: string, deleted: true }> {
  const keys = await useDb().transaction(async (tx) => {
    const row = await findConfirmedUpload(id, tx)
    authorize?.(row)
    return deleteRecords(tx, [row], new Date())
  })
  await removeDeletedObjects([id], keys)
  return { id, deleted: true }
}
