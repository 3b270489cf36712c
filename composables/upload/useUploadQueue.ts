import { computed, markRaw, reactive, ref } from 'vue'
import { ErrorCode } from '#shared/errors'
import { AUTHOR_MAX_LENGTH, MESSAGE_MAX_LENGTH } from '#shared/limits'
import type { EventLimits } from '#shared/media/checks'
import { ApiError } from '~/utils/api-error'
import { useMessages } from '../useMessages'
import { isAbort } from '~/upload-client/abort'
import { isOffline, wakeSleepers } from '~/upload-client/backoff'
import { prepareUploadSync, requestUploadSync } from '~/upload-client/background-sync'
import { pickedTwiceCheck } from '~/upload-client/duplicates'
import { bytesOfDoneParts, toRecord, type QueueItem } from '~/upload-client/item'
import { withItemLock } from '~/upload-client/item-lock'
import { checkMediaFile } from '~/upload-client/media-checks'
import { pageTransfer } from '~/upload-client/page-transfer'
import { catchUp, isUnsent, markFailed, markSent, recordSent } from '~/upload-client/senders'
import * as store from '~/upload-client/store'
import { makeThumbnail } from '~/upload-client/thumbnail'
import { summarize } from '~/upload-client/summary'
import { transferUpload } from '~/upload-client/transfer'
import { deleteSentUpload, postJson } from '~/upload-client/transport'
import { undoLeftMs } from '~/upload-client/undo'

export interface RefusedFile { name: string, reason: string }

/** Files sent at the same time: two hides each file's round trips without splitting a weak uplink too thin. */
const FILE_CONCURRENCY = 2
/** Finished rows from an earlier visit are forgotten after this long. */
const FINISHED_KEPT_MS = 12 * 3600_000

/** Guest text as the server accepts it: control characters (tabs from a paste…) become spaces. */
function cleanText(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- the server refuses these; we replace them first
  return value.replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, ' ').trim().slice(0, max)
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

/**
 * The queue: which files wait, which go (FILE_CONCURRENCY at a time), what the browser keeps of
 * them across reloads, and the page's network listeners. How one file travels, and how its
 * requests are retried, is transfer.ts.
 */
function createQueue() {
  const t = useMessages()
  const items = ref<QueueItem[]>([])
  const online = ref(true)
  /** False once the browser refused to keep a file: the guest must keep the page open. */
  const storageOk = ref(true)
  /** How many unfinished files a reload brought back. */
  const resumedCount = ref(0)
  const restored = ref(false)

  const controllers = new Map<string, AbortController>()
  const running = new Set<string>()
  const removed = new Set<string>()
  let started = false
  const pickedTwice = pickedTwiceCheck(() => items.value, running)

  async function persist(item: QueueItem) {
    if (removed.has(item.key)) return
    await store.saveRecord(toRecord(item))
  }

  function find(key: string): QueueItem | undefined {
    return items.value.find(item => item.key === key)
  }

  function attachThumbnail(item: QueueItem) {
    if (!item.file) return
    void makeThumbnail(item.file, item.kind).then((url) => {
      if (!url) return
      if (removed.has(item.key)) URL.revokeObjectURL(url)
      else item.thumbUrl = url
    })
  }

  /** Files the service worker could still send for this page once it is closed. */
  const hasUnsent = () => items.value.some(item => isUnsent(item) && item.file)

  /** Background Sync (background-sync.ts): wherever the browser has it, the queue goes on without the tab. */
  function syncIfUnsent() {
    if (hasUnsent()) requestUploadSync()
  }

  /**
   * One file's send, holding its lock (item-lock.ts): the service worker may have sent it, or
   * moved it on, while the tab was closed or while this page waited for the lock.
   */
  async function send(item: QueueItem, signal: AbortSignal) {
    const stored = await store.loadRecord(item.key)
    if (stored && !catchUp(item, stored)) {
      if (item.done) await store.removeFile(item.key)
      return
    }
    item.phase = 'sending'
    await transferUpload(item, signal, persist, pageTransfer, pickedTwice)
    await recordSent(item, persist)
  }

  async function run(item: QueueItem) {
    running.add(item.key)
    const controller = new AbortController()
    controllers.set(item.key, controller)
    item.error = null
    try {
      await withItemLock(item.key, () => send(item, controller.signal), { signal: controller.signal })
    }
    catch (error) {
      if (!isAbort(error)) {
        markFailed(item, error, t)
        await persist(item)
        // No answer came: the worker may send it later, without this page.
        if (error instanceof ApiError && error.status === null) syncIfUnsent()
      }
    }
    finally {
      running.delete(item.key)
      controllers.delete(item.key)
      pump()
    }
  }

  /** Starts queued files, oldest first, up to the concurrency. */
  function pump() {
    if (!started) return
    for (const item of items.value) {
      if (running.size >= FILE_CONCURRENCY) break
      if (item.phase === 'queued' && !running.has(item.key)) void run(item)
    }
  }

  function requeueFailed() {
    for (const item of items.value) {
      if (item.phase === 'error' && !item.errorFinal && item.file) {
        item.phase = 'queued'
        item.error = null
      }
    }
    pump()
  }

  async function restore() {
    const records = await store.loadRecords()
    let resumed = 0
    for (let record of records) {
      if (find(record.key) || removed.has(record.key)) continue
      if (record.done && Date.now() - record.addedAt > FINISHED_KEPT_MS) {
        await store.remove(record.key)
        continue
      }
      const file = record.done ? null : await store.loadFile(record.key)
      // The service worker may have sent it (and let its bytes go) between the two reads.
      if (!record.done && !file) record = await store.loadRecord(record.key) ?? record
      const item = reactive<QueueItem>({ ...record, file: file ? markRaw(file) : null, phase: 'waiting', sentBytes: 0, thumbUrl: null }) as QueueItem
      if (record.done) {
        markSent(item)
      }
      else if (!file) {
        item.phase = 'error'
        item.error = t.refusal.gone
        item.errorFinal = true
      }
      else if (record.error && record.errorFinal) {
        item.phase = 'error'
      }
      else if (record.submitted) {
        item.phase = 'queued'
        item.error = null
        item.sentBytes = record.uploadType === 'multipart' ? bytesOfDoneParts(item) : 0
        resumed++
      }
      items.value.push(item)
      attachThumbnail(item)
    }
    resumedCount.value = resumed
    restored.value = true
    if (isOffline()) syncIfUnsent()
    pump()
  }

  /** Once, in the browser: brings back what an earlier visit left and listens for the network. */
  function start() {
    if (started || typeof window === 'undefined') return
    started = true
    online.value = !isOffline()
    prepareUploadSync()
    // The queue lives as long as the tab: these listeners are added once, never per page visit.
    window.addEventListener('online', () => {
      online.value = true
      wakeSleepers()
      requeueFailed()
    })
    window.addEventListener('offline', () => {
      online.value = false
      syncIfUnsent()
    })
    // A phone unlocked: requests the system froze meanwhile are retried now, not after the back-off.
    // Hidden (locked, another app) or closed: the worker may have to finish without this page.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') {
        wakeSleepers()
        pump()
      }
      else {
        syncIfUnsent()
      }
    })
    window.addEventListener('pagehide', syncIfUnsent)
    void restore()
  }

  /** Checks picked files and adds the acceptable ones, waiting for the send button; answers the refused ones. */
  async function addFiles(files: File[], limits: EventLimits): Promise<RefusedFile[]> {
    const refused: RefusedFile[] = []
    for (const file of files) {
      const check = await checkMediaFile(file, limits, t)
      if (!check.ok) {
        refused.push({ name: file.name, reason: check.reason })
        continue
      }
      const item = reactive<QueueItem>({
        key: newKey(), fileName: file.name, contentType: check.contentType, kind: check.kind, size: file.size,
        durationSec: check.durationSec, author: '', message: '', addedAt: Date.now(), submitted: false,
        uploadId: null, uploadType: null, partsDone: [], done: false, status: null, error: null, errorFinal: false,
        hash: null, duplicate: false, undo: null,
        // A File inside a reactive proxy loses its native methods (slice, arrayBuffer).
        file: markRaw(file), phase: 'waiting', sentBytes: 0, thumbUrl: null,
      }) as QueueItem
      items.value.push(item)
      attachThumbnail(item)
      // The record first, then the bytes: a record whose file never arrived is reported, not lost silently.
      if (!(await store.saveRecord(toRecord(item))) || !(await store.saveFile(item.key, file))) storageOk.value = false
    }
    return refused
  }

  /** The send button: every waiting file goes, with the author and message given now. */
  function submit(author: string, message: string) {
    const cleanAuthor = cleanText(author, AUTHOR_MAX_LENGTH)
    const cleanMessage = cleanText(message, MESSAGE_MAX_LENGTH)
    for (const item of items.value) {
      if (item.phase !== 'waiting') continue
      item.author = cleanAuthor
      item.message = cleanMessage
      item.submitted = true
      item.phase = 'queued'
      void persist(item)
    }
    if (isOffline()) syncIfUnsent()
    pump()
  }

  /** Stops a file, forgets it here and tells the server to drop what it received. */
  async function cancel(key: string) {
    const item = find(key)
    if (!item || item.done) return
    removed.add(key)
    controllers.get(key)?.abort()
    items.value = items.value.filter(other => other.key !== key)
    if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl)
    await store.remove(key)
    if (item.uploadId) {
      // Best effort: an upload never confirmed is swept with its bytes after a day anyway.
      await postJson(`/api/uploads/${item.uploadId}/abort`).catch(() => undefined)
    }
    pump()
  }

  /**
   * "Remover": takes back an upload this device sent, while its window lasts. The row goes once
   * the server removed it (or had already); a refusal (window over) leaves the row, without the button.
   */
  async function removeSent(key: string) {
    const item = find(key)
    if (!item?.uploadId || !item.undo || undoLeftMs(item) === 0) return
    try {
      await deleteSentUpload(item.uploadId, item.undo.token)
    }
    catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) {
        if (error instanceof ApiError && error.status !== null) item.undo = null
        item.error = error instanceof ApiError && error.code === ErrorCode.UNDO_EXPIRED ? t.item.undoExpired : t.item.undoFailed
        await persist(item)
        return
      }
    }
    removed.add(key)
    items.value = items.value.filter(other => other.key !== key)
    if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl)
    await store.remove(key)
  }

  function retry(key: string) {
    const item = find(key)
    if (!item || item.phase !== 'error' || !item.file) return
    item.phase = 'queued'
    item.error = null
    item.errorFinal = false
    void persist(item)
    pump()
  }

  /** "Send more": finished rows leave the list (they are on the server). */
  async function clearFinished() {
    const finished = items.value.filter(item => item.done)
    items.value = items.value.filter(item => !item.done)
    for (const item of finished) {
      removed.add(item.key)
      if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl)
      await store.remove(item.key)
    }
  }

  const waitingCount = computed(() => items.value.filter(item => item.phase === 'waiting').length)
  const busy = computed(() => items.value.some(item => ['queued', 'sending', 'paused', 'retrying', 'finishing'].includes(item.phase)))
  const allDone = computed(() => items.value.length > 0 && items.value.every(item => item.done))
  const doneCount = computed(() => items.value.filter(item => item.done).length)
  const awaitingApproval = computed(() => items.value.some(item => item.done && item.status === 'pending'))
  const summary = computed(() => summarize(items.value, online.value))

  return {
    items, online, storageOk, resumedCount, restored, waitingCount, busy, allDone, doneCount, awaitingApproval, summary,
    start, addFiles, submit, cancel, retry, clearFinished, removeSent,
  }
}

export type UploadQueue = ReturnType<typeof createQueue>

let instance: UploadQueue | undefined

/**
 * The guest's upload queue. In the browser there is one for the whole tab, so leaving /enviar and
 * coming back finds the same queue still running; on the server each render gets an inert empty one.
 */
export function useUploadQueue(): UploadQueue {
  if (import.meta.server) return createQueue()
  instance ??= createQueue()
  return instance
}
