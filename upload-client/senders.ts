import { ErrorCode } from '#shared/errors'
import type { Messages } from '#shared/messages/pt-BR'
import { ApiError } from '~/app-utils/api-error'
import { describeFailure } from './failures'
import { forgetUpload, type QueueItem } from './item'
import * as store from './store'
import type { UploadRecord } from './store'

/**
 * What every sender of a queued file agrees on (the page's queue, and the service worker's
 * Background Sync once the tab is closed): which files are still to send, how a sent or failed
 * one is written down, and how a sender catches up with what another stored meanwhile.
 */

/** The guest picked the file to send, and it has neither arrived nor been refused for good. */
export function isUnsent(record: Pick<UploadRecord, 'submitted' | 'done' | 'errorFinal'>): boolean {
  return record.submitted && !record.done && !record.errorFinal
}

/** The file is on the server (sent now, or its bytes were already there). */
export function markSent(item: QueueItem): void {
  item.done = true
  item.phase = item.duplicate ? 'duplicate' : 'done'
  item.sentBytes = item.size
  item.file = null
}

/**
 * The file is on the server (its confirm answered): written down as sent through the sender's
 * `persist`, then its copy in the browser's storage, no longer needed, let go.
 */
export async function recordSent(item: QueueItem, persist: (item: QueueItem) => Promise<void>): Promise<void> {
  markSent(item)
  await persist(item)
  await store.removeFile(item.key)
}

/** The file did not go, for a reason retrying at once cannot fix: the words for its row. */
export function markFailed(item: QueueItem, error: unknown, t: Messages): void {
  const { words, final } = describeFailure(item, error, t)
  // The server removed a record it refused after the bytes arrived; a new try starts over.
  if (error instanceof ApiError && error.code === ErrorCode.CONTENT_MISMATCH) forgetUpload(item)
  item.phase = 'error'
  item.error = words
  item.errorFinal = final
}

/**
 * Takes over what another sender stored while this one waited for the file's lock: the upload
 * it started, its acknowledged parts, and its end (sent, or refused for good). A failure that
 * another try may fix is not taken over: this sender tries. Answers whether the file is still to send.
 */
export function catchUp(item: QueueItem, stored: UploadRecord): boolean {
  // Another sender's init told the server the words it had then; the words typed here stay this page's.
  if (stored.uploadId !== item.uploadId) item.wordsSent = stored.wordsSent ? { ...stored.wordsSent } : null
  item.wordsLocked = item.wordsLocked || (stored.wordsLocked ?? false)
  // Who makes the display copy belongs to the upload: the other sender's, when it started another.
  if (stored.uploadId !== item.uploadId || stored.displayCopy) item.displayCopy = stored.displayCopy ?? null
  item.uploadId = stored.uploadId
  item.uploadType = stored.uploadType
  item.partsDone = [...stored.partsDone]
  item.hash = stored.hash ?? item.hash ?? null
  item.duplicate = stored.duplicate ?? false
  item.undo = stored.undo ? { ...stored.undo } : null
  item.status = stored.status
  if (stored.done) {
    markSent(item)
    return false
  }
  if (stored.errorFinal) {
    item.phase = 'error'
    item.error = stored.error
    item.errorFinal = true
    return false
  }
  return true
}
