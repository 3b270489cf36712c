/// <reference lib="webworker" />
import { DEFAULT_LANGUAGE, languageOfAcceptLanguage } from '#shared/i18n/locale'
import { en } from '#shared/messages/en'
import { es } from '#shared/messages/es'
import { ptBR } from '#shared/messages/pt-BR'
import { ApiError } from '~/app-utils/api-error'
import { isAbort } from '~/upload-client/abort'
import { isOffline, sleep } from '~/upload-client/backoff'
import { UPLOAD_SYNC_TAG } from '~/upload-client/background-sync'
import { toRecord, type QueueItem } from '~/upload-client/item'
import { withItemLock } from '~/upload-client/item-lock'
import { isUnsent, markFailed, recordSent } from '~/upload-client/senders'
import { sha256OfChunks } from '~/upload-client/sha256-chunks'
import { sha256OneShot } from '~/upload-client/sha256-one-shot'
import * as store from '~/upload-client/store'
import { transferUpload, type TransferEnvironment } from '~/upload-client/transfer'
import { deleteSentUpload, postJson, putBlobByFetch } from '~/upload-client/transport'

/**
 * Background Sync of the guest's queue: a guest pressed send offline and closed the
 * tab; when the network returns, Chromium wakes this worker with the page's `upload-queue` sync
 * and it sends what the queue left in IndexedDB, the way the page would (upload-client/
 * transfer.ts), each file under the lock the page takes too (item-lock.ts), so no file goes twice.
 * What the worker cannot do, it leaves out: no progress bar to feed, and no poster for a video nor
 * public images for a photo (both need a document): the server derives a photo's images at
 * confirm, and a video sent from here has no poster (the gallery shows its drawn placeholder).
 */

// A failed file's words are written down here, with no page open: in the language the phone's
// browser asks for (a worker cannot import a language on demand, so the three small files travel
// with it).
const texts = { 'pt-BR': ptBR, en, es }[languageOfAcceptLanguage(self.navigator.languages.join(',')) ?? DEFAULT_LANGUAGE]

/**
 * Chromium ends a sync event after three minutes and counts it failed: the worker stops sending
 * before that. Parts acknowledged so far are kept, so the next sync (or the page) resumes there.
 */
const SYNC_BUDGET_MS = 150_000
/** A closing page lets its locks go within moments; one that holds a file longer is alive and sending it. */
const LOCK_WAIT_MS = 15_000
/** Requests with no answer while the browser says it is online before this sync gives a file up. */
const MAX_LOST_CONNECTIONS = 3
/**
 * A cut shorter than this is waited out, and parts already on the wire finish meanwhile (their
 * acknowledgement kept); a longer one ends the sync, and the browser fires another once the
 * network is back.
 */
const OFFLINE_GRACE_MS = 10_000
const OFFLINE_POLL_MS = 500

/** A sync event (Background Sync; not in TypeScript's worker types, Chromium only). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string
}

const workerTransfer: TransferEnvironment = {
  put: putBlobByFetch,
  // A worker cannot start a worker of its own: a large file is hashed here, in chunks.
  hash: async bytes => (await sha256OneShot(bytes)) ?? sha256OfChunks(bytes),
  waitForNetwork: async (signal) => {
    const deadline = Date.now() + OFFLINE_GRACE_MS
    while (isOffline()) {
      if (Date.now() >= deadline) throw new ApiError(null, null)
      await sleep(OFFLINE_POLL_MS, signal)
    }
  },
  maxLostConnections: MAX_LOST_CONNECTIONS,
}

/** The guest removed the file on an open page while the worker sent it. */
class RemovedMeanwhile extends Error {}

/** What became of one file: sent, refused (written down), left for a later sync, or not the worker's to send. */
export type SyncOutcome = 'sent' | 'failed' | 'left' | 'skipped'

/** Takes back what the worker sent of a file the guest removed meanwhile (best effort, as the page's own cancel). */
async function dropRemoved(item: QueueItem): Promise<void> {
  if (!item.uploadId || item.duplicate) return
  if (item.status && item.undo) await deleteSentUpload(item.uploadId, item.undo.token).catch(() => undefined)
  else await postJson(`/api/uploads/${item.uploadId}/abort`).catch(() => undefined)
}

/** Sends one file, holding its lock; the record is read again first (a page may have sent it meanwhile). */
async function sendOne(key: string, signal: AbortSignal): Promise<SyncOutcome> {
  const record = await store.loadRecord(key)
  if (!record || !isUnsent(record)) return 'skipped'
  const file = await store.loadFile(key)
  // Its bytes are gone from this browser: the page says so when it is opened.
  if (!file) return 'skipped'
  const item: QueueItem = { ...record, file, phase: 'queued', sentBytes: 0, thumbUrl: null }
  const persist = async (current: QueueItem) => {
    const stored = await store.loadRecord(current.key)
    if (!stored) throw new RemovedMeanwhile()
    // Words a page gave the file meanwhile are newer than the ones read here: they stay (and an
    // init still to come takes them); the page tells the server of them if init went before.
    if ((stored.wordsRevision ?? 0) > (current.wordsRevision ?? 0)) {
      current.author = stored.author
      current.message = stored.message
      current.wordsRevision = stored.wordsRevision
    }
    await store.saveRecord(toRecord(current))
  }
  try {
    await transferUpload(item, signal, persist, workerTransfer)
    await recordSent(item, persist)
    return 'sent'
  }
  catch (error) {
    if (error instanceof RemovedMeanwhile) {
      await dropRemoved(item)
      return 'skipped'
    }
    // Out of time, offline, or the server unwell: what was acknowledged is kept for the next try.
    if (isAbort(error) || (error instanceof ApiError && error.transient)) return 'left'
    // No page is open here to say which language the guest reads: the words are pt-BR's.
    markFailed(item, error, texts)
    await persist(item).catch(() => undefined)
    return 'failed'
  }
}

/**
 * One sync: every file the queue still has to send, oldest first, one at a time (a phone's
 * uplink is not faster for being split, and one file at a time keeps within the event's time).
 * Answers whether anything was left for a later sync.
 */
export async function sendQueuedUploads(): Promise<boolean> {
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), SYNC_BUDGET_MS)
  let left = false
  try {
    for (const { key } of (await store.loadRecords()).filter(isUnsent)) {
      if (deadline.signal.aborted) return true
      try {
        const locked = await withItemLock(key, () => sendOne(key, deadline.signal), { signal: deadline.signal, waitMs: LOCK_WAIT_MS })
        // Not granted: a live page is sending this file (it ends its own way).
        if (locked.ran && locked.value === 'left') left = true
      }
      catch (error) {
        if (!isAbort(error)) throw error
        return true
      }
    }
    return left
  }
  finally {
    clearTimeout(timer)
  }
}

/**
 * Answers the page's sync. A sync that left files rejects, so the browser tries again later (with
 * its own back-off); the page resumes them too whenever it is opened.
 */
export function listenForUploadSync(worker: ServiceWorkerGlobalScope): void {
  worker.addEventListener('sync', (event) => {
    const sync = event as SyncEvent
    if (sync.tag !== UPLOAD_SYNC_TAG) return
    sync.waitUntil(sendQueuedUploads().then((anythingLeft) => {
      if (anythingLeft) throw new Error('uploads left for a later sync')
    }))
  })
}
