import { availableParallelism } from 'node:os'
import { and, asc, isNotNull, isNull, sql } from 'drizzle-orm'
import type { H3Event } from 'h3'
import { uploads } from '../../../db/schema'
import { useDb } from '../db'
import { deriveImages } from './derive'
import { settleDisplayCopies } from './display-copy'

/*
 * Which photo is derived next: one at a time per core (deriving one image uses one libvips thread,
 * derive.ts), so after a burst of three hundred phones the backlog drains on every core while each
 * image holds ~50 MB at most (bench/RESULTS.md, load).
 */
const DERIVE_CONCURRENCY = availableParallelism()

/** In the order they were queued: the newest at the end. */
const waiting: { id: string, queuedAt: number, done: () => void }[] = []
const scheduled = new Map<string, Promise<void>>()
let running = 0

/** A photo waiting this long is aged: it gets every other free slot until none is left. */
const AGED_AFTER_MS = 15_000
let agedTurn = false

/**
 * Newest first: at the peak, a guest who has just sent a photo sees it on the screen soon, where
 * a first-come queue would hold it behind the whole burst. No photo waits without bound for it:
 * once the oldest has waited AGED_AFTER_MS, aged photos (oldest first) and the newest take turns,
 * so the backlog of aged ones drains at half the rate at least.
 */
function nextWaiting() {
  const oldest = waiting[0]!
  agedTurn = !agedTurn
  if (agedTurn && Date.now() - oldest.queuedAt >= AGED_AFTER_MS) return waiting.shift()!
  return waiting.pop()!
}

/**
 * Upload steps (init, a local PUT, confirm) being answered right now. Deriving takes a core of its
 * own (libvips) and writes on the event loop: in a burst it took the CPU the guests' next answers
 * needed, so while any step is being answered a photo waits (its thumbnail a little later, no
 * guest's answer later), up to YIELD_AT_MOST_MS, and then photos are derived one at a time.
 */
let answering = 0
const YIELD_AT_MOST_MS = 2000
let overdueTimer: ReturnType<typeof setTimeout> | undefined

/** Counts the request as an upload step being answered until its response has gone (or the client left). */
export function deferDerivationsWhileAnswering(event: H3Event): void {
  answering++
  event.node.res.once('close', () => {
    answering--
    if (answering === 0) startWaiting()
  })
}

/** How many photos may be derived at once now: all cores when nothing is being answered. */
function slots(): number {
  if (answering === 0) return DERIVE_CONCURRENCY
  const waited = Date.now() - waiting[0]!.queuedAt
  if (waited >= YIELD_AT_MOST_MS) return 1
  overdueTimer ??= setTimeout(() => {
    overdueTimer = undefined
    startWaiting()
  }, YIELD_AT_MOST_MS - waited)
  return 0
}

function startWaiting() {
  while (waiting.length > 0 && running < slots()) {
    const { id, done } = nextWaiting()
    running++
    deriveImages(id)
      .catch(error => console.error(`[derive] ${id}:`, error instanceof Error ? error.message : error))
      .finally(() => {
        running--
        scheduled.delete(id)
        done()
        startWaiting()
      })
  }
}

/**
 * Queues derivation off the request path (newest first, see nextWaiting); the promise settles
 * when this photo is done. The sweeper catches anything a crash interrupted.
 */
export function scheduleDerivation(id: string): Promise<void> {
  let finished = scheduled.get(id)
  if (!finished) {
    finished = new Promise<void>(done => waiting.push({ id, queuedAt: Date.now(), done }))
    scheduled.set(id, finished)
    startWaiting()
  }
  try {
    useEvent().waitUntil(finished)
  }
  catch {
    // No request around (sweeper): the caller awaits the returned promise itself.
  }
  return finished
}

/** Confirmed and not derived yet: the partial index uploads_derive_idx holds exactly these. */
const AWAITING_DERIVATION = and(isNull(uploads.derivedAt), isNotNull(uploads.confirmedAt))

/**
 * Uploads waiting for, or in, derivation (until done a photo is not in the gallery), read from
 * the database: a photo whose derivation a crash (SIGKILL, power cut) took from memory counts too.
 */
export async function derivationBacklog(): Promise<number> {
  const row = await useDb().select({ count: sql<number>`count(*)` }).from(uploads).where(AWAITING_DERIVATION).get()
  return row?.count ?? 0
}

/**
 * At start: queues every upload confirmed and not derived yet. This process has just started, so
 * nothing of it is in memory; without this, photos confirmed in the seconds before a crash waited
 * for a sweep (the sweeper leaves the last 30 s to the instance that confirmed them) and reached
 * the gallery minutes late. Oldest first, so they keep their turn before photos sent after the start.
 */
export async function resumeDerivations(): Promise<number> {
  const backlog = await useDb().select({ id: uploads.id }).from(uploads).where(AWAITING_DERIVATION).orderBy(asc(uploads.confirmedAt))
  for (const { id } of backlog) void scheduleDerivation(id)
  return backlog.length
}

/**
 * For uploads being deleted: drops those still waiting (they would find no record) and waits for
 * those this instance is deriving right now (about a second each); a video's display copy is
 * called off.
 */
export async function settleDerivations(ids: string[]): Promise<void> {
  const wanted = new Set(ids)
  for (let index = waiting.length - 1; index >= 0; index--) {
    const item = waiting[index]!
    if (!wanted.has(item.id)) continue
    waiting.splice(index, 1)
    scheduled.delete(item.id)
    item.done()
  }
  await Promise.all([...ids.flatMap(id => scheduled.get(id) ?? []), settleDisplayCopies(ids)])
}
