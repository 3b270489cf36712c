import { and, asc, eq, lte } from 'drizzle-orm'
import { pendingDeletions } from '../../../db/schema'

/**
 * Deletes an object now, or records it for the sweeper when storage refuses: a record may be gone
 * while its bytes wait, but never silently forgotten.
 */
export async function deleteObjectOrRetryLater(key: string, multipartUploadId?: string | null): Promise<boolean> {
  try {
    const store = useMediaStore()
    if (multipartUploadId) await store.abortMultipart(key, multipartUploadId)
    await store.delete(key)
    return true
  }
  catch (error) {
    const now = new Date()
    console.warn(`[storage] delete of ${key} failed, retrying later: ${error instanceof Error ? error.message : error}`)
    await useDb().insert(pendingDeletions)
      .values({ key, multipartUploadId: multipartUploadId ?? null, createdAt: now, nextAttemptAt: new Date(now.getTime() + 60_000), lastError: String(error) })
      .onConflictDoNothing()
    return false
  }
}

export async function retryPendingDeletions(limit = 200): Promise<number> {
  const due = await useDb().select().from(pendingDeletions)
    .where(lte(pendingDeletions.nextAttemptAt, new Date()))
    .orderBy(asc(pendingDeletions.nextAttemptAt)).limit(limit)
  let done = 0
  for (const item of due) {
    try {
      const store = useMediaStore()
      if (item.multipartUploadId) await store.abortMultipart(item.key, item.multipartUploadId)
      await store.delete(item.key)
      await useDb().delete(pendingDeletions).where(eq(pendingDeletions.key, item.key))
      done++
    }
    catch (error) {
      const backoff = Math.min(6 * 3600_000, 60_000 * 2 ** Math.min(item.attempts + 1, 10))
      await useDb().update(pendingDeletions)
        .set({ attempts: item.attempts + 1, lastError: String(error), nextAttemptAt: new Date(Date.now() + backoff) })
        .where(and(eq(pendingDeletions.key, item.key)))
    }
  }
  return done
}
