import type { NotifyKind, UploadStatus } from '#shared/enums'
import { notifyQueue } from '../../../db/schema'
import { isLongRunningPreset } from '../config'
import { useDb } from '../db'
import { getEventSettings } from '../event-settings'
import { scheduleNotifyFlush } from './batch'
import { hasPushSubscriptions } from './push'

export interface AnnouncedItem {
  /** The upload's, message's or comment's id. */
  id: string
  kind: NotifyKind
  author: string
  /** A picture for the receiver; uploads may leave it out (their thumbnail is found at send time). */
  thumbUrl?: string | null
  /** What moderation made of it on arrival: `notifyOn: "pending"` hears of `pending` ones only. */
  status: UploadStatus
}

/**
 * Tells the couple of a new item with the next batch (docs/api.md, Notifications). Call it once an
 * item exists (an upload confirmed, a message or comment stored). It returns at once and never
 * throws: a notification must not slow or fail what a guest sent, so errors are only logged.
 */
export function announceNewItem(item: AnnouncedItem): void {
  queueItem(item).catch((error) => {
    console.error('[notify] could not queue an item:', error instanceof Error ? error.message : error)
  })
}

async function queueItem(item: AnnouncedItem): Promise<void> {
  const settings = await getEventSettings()
  const pending = item.status === 'pending'
  if (settings.notifyOn === 'pending' && !pending) return
  if (!settings.notifyUrl && !await hasPushSubscriptions()) return
  const now = new Date()
  await useDb().insert(notifyQueue)
    .values({ id: item.id, kind: item.kind, author: item.author, thumbUrl: item.thumbUrl ?? null, pending, createdAt: now, nextAttemptAt: now })
    .onConflictDoNothing()
  // Serverless presets keep the item for a long-running start to send.
  if (isLongRunningPreset()) await scheduleNotifyFlush()
}
