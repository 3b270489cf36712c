import { markRaw, reactive, type Ref } from 'vue'
import { ErrorCode } from '#shared/errors'
import type { EventLimits } from '#shared/media/checks'
import type { Messages } from '#shared/messages/pt-BR'
import { ApiError } from '~/app-utils/api-error'
import { isAbort } from '~/upload-client/abort'
import { isOffline, wakeSleepers } from '~/upload-client/backoff'
import { prepareUploadSync, requestUploadSync } from '~/upload-client/background-sync'
import { pickedTwiceCheck } from '~/upload-client/duplicates'
import { bytesOfDoneParts, toRecord, type QueueItem } from '~/upload-client/item'
import { withItemLock } from '~/upload-client/item-lock'
import { catchUp, isUnsent, markFailed, markSent, recordSent } from '~/upload-client/senders'
import * as store from '~/upload-client/store'
import { createWordsSender, setItemWords, wordsEditable, wordsOwed, type Words } from '~/upload-client/item-words'
import { deleteSentUpload, postJson } from '~/upload-client/transport'
import { undoLeftMs } from '~/upload-client/undo'
import type { RefusedFile } from './words'

/** Files sent at the same time: two hides each file's round trips without splitting a weak uplink too thin. */
const FILE_CONCURRENCY = 2
/** Words typed go to the server once typing pauses this long (or at once when a field is left). */
const WORDS_PAUSE_MS = 600
/** Finished rows from an earlier visit are forgotten after this long. */
const FINISHED_KEPT_MS = 12 * 3600_000

type Engine = typeof import('~/upload-client/engine')
let engine: Promise<Engine> | undefined

/**
 * The heavier half of sending (upload-client/engine.ts: checks, thumbnails, hashing, public
 * images, transfer), fetched the first time a file needs it: when one is picked, a kept one
 * resumes, or the guest reaches for the picker. A failed fetch (offline, before the service
 * worker kept it) is asked again next time.
 */
export function loadUploadEngine(): Promise<Engine> {
  engine ??= import('~/upload-client/engine').catch((error: unknown) => {
    engine = undefined
    throw error
  })
  return engine
}

/** A picked file and the row the page made for it at once (useUploadQueue), still to be checked. */
export interface PickedFile { file: File, item: QueueItem }

/** What the page shows of the queue, owned by useUploadQueue (in the first load); the runner changes it. */
export interface QueueState {
  items: Ref<QueueItem[]>
  /** False once the browser refused to keep a file: the guest must keep the page open. */
  storageOk: Ref<boolean>
  /** How many unfinished files a reload brought back. */
  resumedCount: Ref<number>
  restored: Ref<boolean>
  /** The name and message in the page's fields: files picked from now on take them. */
  words: Words
  /** The words the files a reload brought back carry, for the page's fields (null: none came back, or the guest typed first). */
  restoredWords: Ref<Words | null>
  /** The guest gave the page words already (typed, or picked with them): a restore does not replace them. */
  wordsGiven: boolean
}

/**
 * The queue's work: which files wait, which go (FILE_CONCURRENCY at a time), what the browser
 * keeps of them across reloads (IndexedDB, store.ts), and what moves it on (the network, a phone
 * unlocked). How one file travels, and how its requests are retried, is transfer.ts. Loaded on
 * demand by useUploadQueue: a first visit that picks nothing never fetches it.
 */
export function createQueueRunner(state: QueueState, t: Messages) {
  const { items, storageOk, resumedCount, restored, words, restoredWords } = state
  const controllers = new Map<string, AbortController>()
  const running = new Set<string>()
  const removed = new Set<string>()
  let started = false
  const pickedTwice = pickedTwiceCheck(() => items.value, running)
  /** Rows shown for picked files not yet checked: the browser keeps nothing of them until they pass. */
  const unchecked = new Set<string>()

  async function persist(item: QueueItem) {
    if (removed.has(item.key) || unchecked.has(item.key)) return
    await store.saveRecord(toRecord(item))
    // Words the server lacks (typed while init was on its way, say) follow at the next pause.
    if (wordsOwed(item)) scheduleWords()
  }

  const sendWords = createWordsSender({ persist, gone: item => removed.has(item.key) })
  let wordsTimer: ReturnType<typeof setTimeout> | undefined

  /** Each file's latest words to the server, now (one request at a time per file: item-words.ts). */
  function flushWords() {
    clearTimeout(wordsTimer)
    for (const item of items.value) sendWords(item)
  }

  /** The same once typing pauses: a request per key would only queue up behind each other. */
  function scheduleWords() {
    clearTimeout(wordsTimer)
    wordsTimer = setTimeout(flushWords, WORDS_PAUSE_MS)
  }

  function find(key: string): QueueItem | undefined {
    return items.value.find(item => item.key === key)
  }

  /** The row's thumbnail: the one kept with the queue, else made from the file (and kept). */
  async function attachThumbnail(item: QueueItem) {
    let thumbnail = await store.loadThumbnail(item.key)
    if (!thumbnail && item.file) {
      const sending = await loadUploadEngine().catch(() => null)
      if (!sending) return
      thumbnail = await sending.makeThumbnail(item.file, item.kind)
      if (thumbnail && !removed.has(item.key)) await store.saveThumbnail(item.key, thumbnail)
    }
    if (thumbnail && !removed.has(item.key)) item.thumbUrl = URL.createObjectURL(thumbnail)
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
    const { transferUpload, pageTransfer } = await loadUploadEngine()
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
      else {
        // Files go as soon as they are picked; one kept from a page that still waited for a send button goes now.
        item.submitted = true
        item.phase = 'queued'
        item.error = null
        item.sentBytes = record.uploadType === 'multipart' ? bytesOfDoneParts(item) : 0
        resumed++
      }
      items.value.push(item)
      void attachThumbnail(item)
    }
    resumedCount.value = resumed
    // The fields show the words of the files that came back (the newest's), unless the guest
    // already typed or picked with others: a reload leaves every file's words as they were.
    const newest = items.value.filter(item => wordsEditable(item)).at(-1)
    if (newest && !state.wordsGiven) {
      words.author = newest.author
      words.message = newest.message
      restoredWords.value = { author: newest.author, message: newest.message }
    }
    restored.value = true
    if (isOffline()) syncIfUnsent()
    pump()
    // Words the server did not take before the reload (an edit cut short) go now.
    flushWords()
  }

  /** Once: brings back what an earlier visit left and listens for what moves the queue on. */
  function start() {
    if (started) return
    started = true
    prepareUploadSync()
    // The queue lives as long as the tab: these listeners are added once, never per page visit.
    window.addEventListener('online', () => {
      wakeSleepers()
      requeueFailed()
    })
    window.addEventListener('offline', syncIfUnsent)
    // A phone unlocked: requests the system froze meanwhile are retried now, not after the back-off.
    // Hidden (locked, another app) or closed: the worker may have to finish without this page.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') {
        wakeSleepers()
        pump()
      }
      else {
        syncIfUnsent()
        // Put away mid-word: what is typed goes now, not after a pause the phone may sleep through.
        flushWords()
      }
    })
    window.addEventListener('pagehide', syncIfUnsent)
    void restore()
  }

  /** A row the check refused, or that could not be checked, leaves the page. */
  function dropRow(key: string) {
    unchecked.delete(key)
    items.value = items.value.filter(other => other.key !== key)
  }

  /**
   * Checks picked files, whose rows the page already shows (`waiting`), and starts sending the
   * acceptable ones at once, each with the words its row was given. Answers the refused ones,
   * their rows taken away; a row cancelled meanwhile is left alone.
   */
  async function addFiles(picked: PickedFile[], limits: EventLimits): Promise<RefusedFile[]> {
    const refused: RefusedFile[] = []
    for (const { item } of picked) unchecked.add(item.key)
    let checkMediaFile: Engine['checkMediaFile']
    try {
      ({ checkMediaFile } = await loadUploadEngine())
    }
    catch {
      // Offline before the page kept its sending code: nothing can be checked or sent yet.
      for (const { item } of picked) dropRow(item.key)
      return picked.map(({ file }) => ({ name: file.name, reason: t.refusal.notReady }))
    }
    for (const { file, item } of picked) {
      if (removed.has(item.key)) continue
      const check = await checkMediaFile(file, limits, t)
      if (removed.has(item.key)) continue
      if (!check.ok) {
        dropRow(item.key)
        refused.push({ name: file.name, reason: check.reason })
        continue
      }
      unchecked.delete(item.key)
      item.contentType = check.contentType
      item.kind = check.kind
      item.durationSec = check.durationSec
      item.phase = 'queued'
      void attachThumbnail(item)
      // The record first, then the bytes: a record whose file never arrived is reported, not lost silently.
      if (!(await store.saveRecord(toRecord(item))) || !(await store.saveFile(item.key, file))) storageOk.value = false
      // The first file goes while the others are still being checked.
      pump()
    }
    if (isOffline()) syncIfUnsent()
    return refused
  }

  /**
   * The page's name and message changed (they are in `words` already): every file on the page
   * whose words this device may still change takes them, kept in the browser at once (a reload
   * finds them). The server hears of them through init if it has not gone yet, else through an
   * edit once typing pauses (or at once with `flushWords`, when a field is left).
   */
  function applyWords() {
    for (const item of items.value) {
      if (wordsEditable(item) && setItemWords(item, words)) void persist(item)
    }
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
   * Answers whether it was removed.
   */
  async function removeSent(key: string): Promise<boolean> {
    const item = find(key)
    if (!item?.uploadId || !item.undo || undoLeftMs(item) === 0) return false
    try {
      await deleteSentUpload(item.uploadId, item.undo.token)
    }
    catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) {
        if (error instanceof ApiError && error.status !== null) item.undo = null
        item.error = error instanceof ApiError && error.code === ErrorCode.UNDO_EXPIRED ? t.item.undoExpired : t.item.undoFailed
        await persist(item)
        return false
      }
    }
    removed.add(key)
    items.value = items.value.filter(other => other.key !== key)
    if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl)
    await store.remove(key)
    return true
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

  return { start, prepare: loadUploadEngine, addFiles, applyWords, flushWords, cancel, retry, clearFinished, removeSent }
}

export type QueueRunner = ReturnType<typeof createQueueRunner>
