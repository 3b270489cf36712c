import { AsyncLocalStorage } from 'node:async_hooks'
import { and, count, eq, inArray, isNotNull } from 'drizzle-orm'
import { comments, guestbookMessages, notifyQueue, uploads } from '../../../db/schema'
import type { EventSettingsRow, NotifyQueueRow } from '../../../db/schema'
import { useConfig } from '../config'
import { useDb } from '../db'
import { getEventSettings } from '../event-settings'
import { publicMediaUrls } from '../storage/media-urls'
import { notifyRequest, type NotifyItem, type NotifyMessage } from './formats'
import { pushToSubscriptions } from './push'
import { safePost } from './safe-post'
import { recordLastStatus } from './state'
import { notificationTexts } from './texts'

/** Waits before the 2nd, 3rd, 4th and 5th try of a batch's items (the contract's "about 2, 8, 30 and 120 s"). */
export const RETRY_DELAYS_SECONDS = [2, 8, 30, 120] as const
const MAX_TRIES = RETRY_DELAYS_SECONDS.length + 1

/*
 * One process sends; the queue is in the database. New items wait for their batch: the first one
 * opens it, and NOTIFY_BATCH_SECONDS later (and never sooner than that after the previous batch)
 * every new item goes out in one delivery. Items whose delivery failed wait for their own retry
 * and then go out with whatever is due. Several instances on one database would each send what
 * they find: the service runs as one process (the venue laptop, a VPS); serverless presets get no
 * timer, and their items wait for a long-running start.
 */
let timer: ReturnType<typeof setTimeout> | undefined
/**
 * The timer is armed by whichever request announced an item; taken outside that request's async
 * context (captured as this module loads, at start), it neither keeps the request alive nor reads
 * its origin when the media addresses are made.
 */
const outsideRequests = AsyncLocalStorage.snapshot()
let timerDue = Infinity
let flushing = false
let lastBatchAt = 0

/** A timer may fire a little early: what is due this close counts as due. */
const SLACK_MS = 50

const batchMs = () => useConfig().NOTIFY_BATCH_SECONDS * 1000

/** When the queue's next delivery is due, or null when it is empty. */
function dueAt(rows: Pick<NotifyQueueRow, 'attempts' | 'createdAt' | 'nextAttemptAt'>[]): { fresh: number | null, retry: number | null } {
  const fresh = rows.filter(row => row.attempts === 0)
  const retries = rows.filter(row => row.attempts > 0)
  return {
    fresh: fresh.length ? Math.max(Math.min(...fresh.map(row => row.createdAt.getTime())) + batchMs(), lastBatchAt + batchMs()) : null,
    retry: retries.length ? Math.min(...retries.map(row => row.nextAttemptAt.getTime())) : null,
  }
}

/**
 * Arms the timer for the queue's next delivery (a restart's leftovers included), or brings it
 * forward when a new item is due sooner than the retry it waits for; a running flush arms it itself.
 */
export async function scheduleNotifyFlush(): Promise<void> {
  if (flushing) return
  const rows = await useDb().select({ attempts: notifyQueue.attempts, createdAt: notifyQueue.createdAt, nextAttemptAt: notifyQueue.nextAttemptAt }).from(notifyQueue).all()
  const { fresh, retry } = dueAt(rows)
  const due = Math.min(fresh ?? Infinity, retry ?? Infinity)
  if (due === Infinity || due >= timerDue || flushing) return
  clearTimeout(timer)
  timerDue = due
  timer = outsideRequests(() => setTimeout(() => {
    timer = undefined
    timerDue = Infinity
    flushing = true
    flushNotifications().catch((error) => {
      console.error('[notify] flush failed:', error instanceof Error ? error.message : error)
    }).finally(() => {
      flushing = false
      scheduleNotifyFlush().catch(error => console.error('[notify] schedule failed:', error instanceof Error ? error.message : error))
    })
  }, Math.max(0, due - Date.now())))
  timer.unref?.()
}

export function stopNotifyTimer(): void {
  clearTimeout(timer)
  timer = undefined
  timerDue = Infinity
}

/** Everything that waits for moderation now: what the receiver, the badge and the tab title count. */
export async function pendingCount(): Promise<number> {
  const db = useDb()
  const [pendingUploads, pendingMessages, pendingComments] = await Promise.all([
    db.select({ n: count() }).from(uploads).where(and(eq(uploads.status, 'pending'), isNotNull(uploads.confirmedAt))).get(),
    db.select({ n: count() }).from(guestbookMessages).where(eq(guestbookMessages.status, 'pending')).get(),
    db.select({ n: count() }).from(comments).where(eq(comments.status, 'pending')).get(),
  ])
  return (pendingUploads?.n ?? 0) + (pendingMessages?.n ?? 0) + (pendingComments?.n ?? 0)
}

/** The admin's address, where a tap on a notification leads. */
export function adminUrl(): string {
  return new URL('/admin', useConfig().PUBLIC_BASE_URL).href
}

/** Uploads' thumbnails exist once derived (moments after confirm): they are looked up at send time. */
async function withThumbnails(rows: NotifyQueueRow[]): Promise<NotifyItem[]> {
  const uploadIds = rows.filter(row => !row.thumbUrl && row.kind !== 'message' && row.kind !== 'comment').map(row => row.id)
  const found = uploadIds.length ? await useDb().select().from(uploads).where(inArray(uploads.id, uploadIds)).all() : []
  const thumbs = new Map(found.map(upload => [upload.id, publicMediaUrls(upload)?.thumbUrl ?? null]))
  return rows.map(row => ({ id: row.id, kind: row.kind, author: row.author, thumbUrl: row.thumbUrl ?? thumbs.get(row.id) ?? null }))
}

export async function notifyMessage(settings: EventSettingsRow, rows: NotifyQueueRow[]): Promise<NotifyMessage> {
  const items = await withThumbnails(rows)
  return { pending: await pendingCount(), items, ...notificationTexts(settings.language, settings.coupleNames, rows), adminUrl: adminUrl() }
}

/** Sends a message to the couple's receiver: its status, or null and the error when none came. */
export async function deliver(settings: EventSettingsRow, message: NotifyMessage): Promise<{ status: number | null, error: string | null }> {
  if (!settings.notifyUrl) return { status: null, error: 'no notifyUrl' }
  const { headers, body } = notifyRequest(settings.notifyFormat, settings.notifySecret!, message)
  try {
    return { status: await safePost(settings.notifyUrl, headers, body), error: null }
  }
  catch (error) {
    return { status: null, error: error instanceof Error ? error.message : String(error) }
  }
}

/** One delivery of every due item; the webhook's failures wait for their retry, the push goes once per item. */
export async function flushNotifications(): Promise<void> {
  const db = useDb()
  const now = new Date()
  const queued = await db.select().from(notifyQueue).orderBy(notifyQueue.createdAt, notifyQueue.id).all()
  const { fresh: freshDue } = dueAt(queued)
  const takeFresh = freshDue !== null && freshDue <= now.getTime() + SLACK_MS
  const rows = queued.filter(row => row.attempts === 0 ? takeFresh : row.nextAttemptAt.getTime() <= now.getTime() + SLACK_MS)
  if (rows.length === 0) return
  if (takeFresh) lastBatchAt = now.getTime()
  const settings = await getEventSettings()
  const message = await notifyMessage(settings, rows)
  const fresh = rows.filter(row => row.attempts === 0)
  const [outcome] = await Promise.all([
    deliver(settings, message),
    fresh.length ? pushToSubscriptions({ ...message, ...notificationTexts(settings.language, settings.coupleNames, fresh) }) : undefined,
  ])
  const attempt = Math.max(...rows.map(row => row.attempts)) + 1
  if (settings.notifyUrl) {
    await recordLastStatus({ at: now.toISOString(), status: outcome.status, error: outcome.error, attempt, items: rows.length })
  }
  const delivered = !settings.notifyUrl || (outcome.status !== null && outcome.status < 300)
  if (delivered) {
    await db.delete(notifyQueue).where(inArray(notifyQueue.id, rows.map(row => row.id)))
    return
  }
  console.warn('[notify] delivery failed:', outcome.status ?? outcome.error)
  const spent = rows.filter(row => row.attempts + 1 >= MAX_TRIES).map(row => row.id)
  if (spent.length) await db.delete(notifyQueue).where(inArray(notifyQueue.id, spent))
  for (const row of rows.filter(row => row.attempts + 1 < MAX_TRIES)) {
    await db.update(notifyQueue)
      .set({ attempts: row.attempts + 1, nextAttemptAt: new Date(now.getTime() + RETRY_DELAYS_SECONDS[row.attempts]! * 1000) })
      .where(eq(notifyQueue.id, row.id))
  }
}
