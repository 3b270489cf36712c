import { partLayout, partSize } from '#shared/limits'
import type { UploadRecord } from './store'

/** The row states the page shows (and tests read from `data-state`). */
export type ItemState = 'queued' | 'uploading' | 'paused' | 'done' | 'duplicate' | 'error'
/** Finer steps, for the words under each row. */
export type ItemPhase = 'waiting' | 'queued' | 'sending' | 'paused' | 'retrying' | 'finishing' | 'done' | 'duplicate' | 'error'

/** One file of the queue: what is remembered across reloads, plus what only this page needs. */
export interface QueueItem extends UploadRecord {
  file: Blob | null
  phase: ItemPhase
  /** Bytes the storage has received or is receiving right now, for the progress bar. */
  sentBytes: number
  thumbUrl: string | null
}

/**
 * A file on its way is `paused` while the browser is offline, even before its request fails: a
 * phone that lost the Wi-Fi may hold a dying request for a minute, and the guest must see at once
 * that nothing moves.
 */
export function itemState(item: Pick<QueueItem, 'phase'>, online = true): ItemState {
  switch (item.phase) {
    case 'waiting':
    case 'queued':
      return 'queued'
    case 'done':
      return 'done'
    case 'duplicate':
      return 'duplicate'
    case 'error':
      return 'error'
    case 'paused':
      return 'paused'
    default:
      return online ? 'uploading' : 'paused'
  }
}

/**
 * Bytes sent, 0–100. Only a finished file shows 100: bytes all sent but not yet confirmed (or a
 * body the phone's buffers swallowed whole) stop at 99, because a full bar reads as "done".
 */
export function itemPercent(item: Pick<QueueItem, 'sentBytes' | 'size' | 'phase'>): number {
  if (item.phase === 'done' || item.phase === 'duplicate') return 100
  if (!item.size) return 0
  return Math.min(99, Math.floor((item.sentBytes / item.size) * 100))
}

export function missingParts(item: QueueItem): number[] {
  const { partCount } = partLayout(item.size)
  const done = new Set(item.partsDone)
  return Array.from({ length: partCount }, (_, index) => index + 1).filter(n => !done.has(n))
}

export function bytesOfDoneParts(item: QueueItem): number {
  return item.partsDone.reduce((sum, n) => sum + partSize(item.size, n), 0)
}

/** The server's upload is gone or was refused: the next try starts a new one. */
export function forgetUpload(item: QueueItem) {
  item.uploadId = null
  item.uploadType = null
  item.partsDone = []
  item.sentBytes = 0
  item.wordsSent = null
}

/** What the browser's storage keeps of an item (no blob, no page state). */
export function toRecord(item: QueueItem): UploadRecord {
  return {
    key: item.key, fileName: item.fileName, contentType: item.contentType, kind: item.kind, size: item.size,
    durationSec: item.durationSec, author: item.author, message: item.message, addedAt: item.addedAt,
    submitted: item.submitted, uploadId: item.uploadId, uploadType: item.uploadType, partsDone: [...item.partsDone],
    done: item.done, status: item.status, error: item.error, errorFinal: item.errorFinal,
    hash: item.hash ?? null, duplicate: item.duplicate ?? false, undo: item.undo ? { ...item.undo } : null,
    wordsRevision: item.wordsRevision ?? 0, wordsSent: item.wordsSent ? { ...item.wordsSent } : null, wordsLocked: item.wordsLocked ?? false,
    challengeId: item.challengeId ?? null,
    ...(item.takenAt !== undefined ? { takenAt: item.takenAt } : {}),
    displayCopy: item.displayCopy ?? null,
  }
}
