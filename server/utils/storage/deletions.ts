import { asc, eq, inArray, lte } from 'drizzle-orm'
import pLimit from 'p-limit'
import { pendingDeletions, type UploadRow } from '../../../db/schema'
import { useDb, type DbTransaction } from '../db'
import { ownedKeys } from './keys'
import { useMediaStore } from './use-media-store'

/*
 * The only writer of pending_deletions: objects whose record is gone, or going, but whose bytes
 * are not removed yet. Every entry follows one retry policy: first tried ten minutes after it was
 * queued, then twice as long after each failure, at most six hours apart. Ten minutes (not one)
 * because an entry may be written before the delete it stands in for: an admin delete queues its
 * keys in its transaction and then removes them itself, after waiting for a derivation of those
 * photos, and the sweeper must not race it for them. A storage that refused a delete gains
 * nothing from an earlier retry: the sweeper comes by every ten minutes anyway (the default
 * SWEEP_INTERVAL_SECONDS).
 */
const FIRST_RETRY_MS = 10 * 60_000
const LONGEST_RETRY_MS = 6 * 3600_000
/** Object deletions run this many at a time after a (bulk) delete commits. */
const DELETION_CONCURRENCY = 8

function nextAttemptAt(failures: number, now: Date): Date {
  return new Date(now.getTime() + Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures))
}

async function removeObject(key: string, multipartUploadId?: string | null): Promise<void> {
  const store = useMediaStore()
  if (multipartUploadId) await store.abortMultipart(key, multipartUploadId)
  await store.delete(key)
}

/**
 * Deletes an object now, or records it for the sweeper when storage refuses: a record may be gone
 * while its bytes wait, but never silently forgotten.
 */
export async function deleteObjectOrRetryLater(key: string, multipartUploadId?: string | null): Promise<boolean> {
  try {
    await removeObject(key, multipartUploadId)
    return true
  }
  catch (error) {
    const now = new Date()
    console.warn(`[storage] delete of ${key} failed, retrying later: ${error instanceof Error ? error.message : error}`)
    await useDb().insert(pendingDeletions)
      .values({ key, multipartUploadId: multipartUploadId ?? null, createdAt: now, nextAttemptAt: nextAttemptAt(0, now), lastError: String(error) })
      .onConflictDoNothing()
    return false
  }
}

/** Removes (or queues for removal) every object an unconfirmed upload owns, its open multipart upload included. */
export async function deleteOwnedObjects(row: UploadRow): Promise<void> {
  for (const key of ownedKeys(row)) await deleteObjectOrRetryLater(key, key === row.storageKey ? row.multipartUploadId : null)
}

/**
 * Queues objects for deletion inside the transaction that deletes their records, so that no
 * commit can leave an object nobody knows of. The caller then removes them (`deleteQueuedObjects`).
 */
export async function queueDeletions(tx: DbTransaction, keys: string[], now: Date): Promise<void> {
  for (let start = 0; start < keys.length; start += 200) {
    await tx.insert(pendingDeletions)
      .values(keys.slice(start, start + 200).map(key => ({ key, createdAt: now, nextAttemptAt: nextAttemptAt(0, now) })))
      .onConflictDoNothing()
  }
}

/** Removes queued objects now and takes them off the queue; what storage refuses stays queued for the sweeper. */
export async function deleteQueuedObjects(keys: string[]): Promise<void> {
  const limit = pLimit(DELETION_CONCURRENCY)
  const done = await Promise.all(keys.map(key => limit(() => deleteObjectOrRetryLater(key))))
  const removed = keys.filter((_, index) => done[index])
  for (let start = 0; start < removed.length; start += 500) {
    await useDb().delete(pendingDeletions).where(inArray(pendingDeletions.key, removed.slice(start, start + 500)))
  }
}

/** The sweeper's part: queued deletions that are due, oldest first. */
export async function retryPendingDeletions(limit = 200): Promise<number> {
  const due = await useDb().select().from(pendingDeletions)
    .where(lte(pendingDeletions.nextAttemptAt, new Date()))
    .orderBy(asc(pendingDeletions.nextAttemptAt)).limit(limit)
  let done = 0
  for (const item of due) {
    try {
      await removeObject(item.key, item.multipartUploadId)
      await useDb().delete(pendingDeletions).where(eq(pendingDeletions.key, item.key))
      done++
    }
    catch (error) {
      await useDb().update(pendingDeletions)
        .set({ attempts: item.attempts + 1, lastError: String(error), nextAttemptAt: nextAttemptAt(item.attempts + 1, new Date()) })
        .where(eq(pendingDeletions.key, item.key))
    }
  }
  return done
}
