import { and, asc, eq, isNotNull, isNull, lt } from 'drizzle-orm'
import type { H3Event } from 'h3'
import { revokedTokens, uploads } from '../../../db/schema'

export interface SweepReport {
  staleRemoved: number
  deletionsRetried: number
  leftovers: number
  staged: number
  derived: number
}

/**
 * Staged objects younger than this are left alone even when no open upload owns them: an object
 * whose PUT is just ending, or whose confirm is just moving it, is never taken from under it.
 */
const STAGED_GRACE_MS = 10 * 60_000

let lastStagedSweep = 0

/**
 * Removes objects under the staging prefix that no open upload owns: a signed PUT sent again
 * after its upload was confirmed or aborted (its URL cannot be revoked on S3), or a crash's
 * half-written file. An S3 lifecycle rule on the prefix is the cloud's backstop (README).
 */
async function sweepStaged(now: Date): Promise<number> {
  const store = useMediaStore()
  const grace = Math.min(STAGED_GRACE_MS, useConfig().UPLOAD_STALE_AFTER_SECONDS * 1000)
  // Once per grace period, not every sweep: an orphan in staging is served to no one, and listing
  // a bucket is a billed request that, with storage down, would hold every sweep for its timeout.
  if (now.getTime() - lastStagedSweep < grace) return 0
  lastStagedSweep = now.getTime()
  const keys = await store.listOlderThan(STAGING_PREFIX, new Date(now.getTime() - grace))
  let removed = 0
  for (const key of keys) {
    if (servedKeyOfStaged(key)) {
      const owner = await useDb().select({ confirmedAt: uploads.confirmedAt }).from(uploads).where(eq(uploads.id, uploadIdOfKey(key))).get()
      if (owner && !owner.confirmedAt) continue
    }
    if (await deleteObjectOrRetryLater(key)) removed++
  }
  return removed
}

/**
 * Housekeeping that makes "nothing half-written" true over time: unconfirmed uploads older than
 * the limit go with their bytes and open multipart uploads; failed deletions are retried; staged
 * objects no open upload owns are removed; photos
 * whose derivation a crash interrupted are derived; expired revocations are forgotten.
 */
export async function sweep(now = new Date()): Promise<SweepReport> {
  const db = useDb()
  const staleBefore = new Date(now.getTime() - useConfig().UPLOAD_STALE_AFTER_SECONDS * 1000)
  const stale = await db.select().from(uploads)
    .where(and(isNull(uploads.confirmedAt), lt(uploads.createdAt, staleBefore)))
    .orderBy(asc(uploads.createdAt)).limit(500)
  let staleRemoved = 0
  for (const row of stale) {
    // Taken like an abort: a confirm running on it right now keeps it.
    const claimed = await claimUpload(row.id, 'abort')
    if (!claimed) continue
    await discardUpload(claimed)
    staleRemoved++
  }

  const deletionsRetried = await retryPendingDeletions()
  const leftovers = await useMediaStore().collectLeftovers?.(staleBefore) ?? 0
  const staged = await sweepStaged(now)

  const backlog = await db.select({ id: uploads.id }).from(uploads)
    .where(and(isNotNull(uploads.confirmedAt), isNull(uploads.derivedAt), lt(uploads.confirmedAt, new Date(now.getTime() - 30_000))))
    .limit(100)
  await Promise.all(backlog.map(({ id }) => scheduleDerivation(id)))

  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now))
  return { staleRemoved, deletionsRetried, leftovers, staged, derived: backlog.length }
}

let lastOpportunisticSweep = 0

/**
 * Serverless presets have no timer and Nitro's scheduled tasks do not become Vercel or Netlify
 * cron jobs, so there the sweeper rides on traffic: at most once per interval per instance, after
 * the answer is sent (`waitUntil`). Long-running servers use the timer in plugins/10.sweeper.ts.
 */
export function sweepOnTraffic(event: H3Event): void {
  const seconds = useConfig().SWEEP_INTERVAL_SECONDS
  if (!seconds || isLongRunningPreset() || Date.now() - lastOpportunisticSweep < seconds * 1000) return
  lastOpportunisticSweep = Date.now()
  event.waitUntil(sweep().catch(error => console.error('[sweep] failed:', error instanceof Error ? error.message : error)))
}
