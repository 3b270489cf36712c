/**
 * The guest's upload queue, as a feature folder: only what the upload page and its components use
 * is exported here (and so auto-imported). The rest are plain modules of this folder:
 * - useUploadQueue.ts: the queue (state, scheduling, persistence, network listeners)
 * - transfer.ts: one file's way to the server (init, refresh, signed URLs, PUTs, confirm) and its retries,
 *   run by the page (page-transfer.ts) and by the service worker's Background Sync (service-worker/upload-sync.ts)
 * - item-lock.ts, senders.ts, background-sync.ts: one sender per file across the page and the worker,
 *   what both write down, and the page asking for a sync
 * - backoff.ts: how long a retry waits; transport.ts: the requests themselves
 * - failures.ts: the words for a failure, and the client-side codes
 * - item.ts, store.ts: a queued file, and what the browser keeps of it across reloads
 * - summary.ts: the whole batch at a glance (files and bytes done, paused, finished)
 * - duplicates.ts, file-hash.ts (+ its worker, sha256-chunks.ts, sha256-one-shot.ts): bytes already sent are not sent again
 * - undo.ts: "Remover", this device taking an upload back while its window lasts
 * - media-checks.ts, thumbnail.ts, video-poster.ts, detached-video.ts: what is read from a picked file
 */
export { useUploadQueue } from './useUploadQueue'
export type { RefusedFile, UploadQueue } from './useUploadQueue'
export { itemPercent, itemState } from './item'
export { undoLeftMs } from './undo'
export type { ItemPhase, ItemState, QueueItem } from './item'
export type { SummaryState, UploadSummary } from './summary'
