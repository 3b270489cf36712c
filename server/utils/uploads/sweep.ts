import { and, asc, isNotNull, isNull, lt } from 'drizzle-orm'
import type { H3Event } from 'h3'
import { revokedTokens, uploads } from '../../../db/schema'

export interface SweepReport {
  staleRemoved: number
  deletionsRetried: number
  leftovers: number
  derived: number
}

/**
 * Housekeeping that makes "nothing half-written" true over time: unconfirmed uploads older than
 * the limit go with their bytes and open multipart uploads; failed deletions are retried; photos
 * whose derivation a crash interrupted are derived; expired revocations are forgotten.
 */
export async function sweep(now = new Date()): Promise<SweepReport> {
  const db = useDb()
  const staleBefore = new Date(now.getTime() - useConfig().UPLOAD_STALE_AFTER_SECONDS * 1000)
  const stale = await db.select().from(uploads)
    .where(and(isNull(uploads.confirmedAt), lt(uploads.createdAt, staleBefore)))
    .orderBy(asc(uploads.createdAt)).limit(500)
  for (const row of stale) await discardUpload(row)

  const deletionsRetried = await retryPendingDeletions()
  const leftovers = await useMediaStore().collectLeftovers?.(staleBefore) ?? 0

  const backlog = await db.select({ id: uploads.id }).from(uploads)
    .where(and(isNotNull(uploads.confirmedAt), isNull(uploads.derivedAt), lt(uploads.confirmedAt, new Date(now.getTime() - 30_000))))
    .limit(100)
  await Promise.all(backlog.map(({ id }) => scheduleDerivation(id)))

  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now))
  return { staleRemoved: stale.length, deletionsRetried, leftovers, derived: backlog.length }
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

export function isLongRunningPreset(): boolean {
  return import.meta.dev || LONG_RUNNING_PRESETS.has(String(import.meta.preset ?? ''))
}
