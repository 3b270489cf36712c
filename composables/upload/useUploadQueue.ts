import { computed, effectScope, markRaw, reactive, ref, watch } from 'vue'
import { AUTHOR_MAX_LENGTH, MESSAGE_MAX_LENGTH, kindOfContentType } from '#shared/limits'
import type { EventLimits } from '#shared/media/checks'
import { useMessages } from '../useMessages'
import { isOffline } from '~/upload-client/backoff'
import type { QueueItem } from '~/upload-client/item'
import type { Words } from '~/upload-client/item-words'
import { UPLOAD_RECORDS_DB } from '~/app-utils/storage-keys'
import { summarize } from '~/upload-client/summary'
import { whenIdle } from '~/app-utils/when-idle'
import type { PickedFile, QueueRunner, QueueState } from './queue-runner'
import { cleanText, type RefusedFile } from './words'

export type { RefusedFile } from './words'

/** Sending, online, and no byte moved for this long: the guest is told the server does not answer. */
const STALL_MS = 10_000
/** How often the queue looks for that. */
const STALL_CHECK_MS = 1000

/** Random, and sent with init so that init tried again finds the same upload (docs/api.md). */
function newKey(): string {
  // randomUUID needs a secure context; a venue laptop served over plain http has only getRandomValues.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), byte => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * A picked file's row, made from what the picker says of it (name, size, type) without reading
 * it: shown at once, before the sending code, the queue's store or the file's own bytes are
 * there. It waits (`waiting`) until the runner has checked the file; the check may still refuse
 * it, or correct its type and kind from its bytes.
 */
function pickedRow(file: File, words: Words, challengeId: string | null): QueueItem {
  return reactive<QueueItem>({
    key: newKey(), fileName: file.name, contentType: file.type, kind: kindOfContentType(file.type), size: file.size,
    durationSec: null, author: cleanText(words.author, AUTHOR_MAX_LENGTH), message: cleanText(words.message, MESSAGE_MAX_LENGTH), addedAt: Date.now(), submitted: true,
    uploadId: null, uploadType: null, partsDone: [], done: false, status: null, error: null, errorFinal: false,
    hash: null, duplicate: false, undo: null, challengeId,
    // A File inside a reactive proxy loses its native methods (slice, arrayBuffer).
    file: markRaw(file), phase: 'waiting', sentBytes: 0, thumbUrl: null,
  }) as QueueItem
}

/**
 * Whether an earlier visit may have left files in this browser: not when the queue's database was
 * never created (indexedDB.databases() says so without creating it). Where that cannot be asked,
 * assume it did: a kept upload is never left behind to save a download.
 */
async function keptUploadsMayExist(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false
  if (typeof indexedDB.databases !== 'function') return true
  try {
    return (await indexedDB.databases()).some(db => db.name === UPLOAD_RECORDS_DB)
  }
  catch {
    return true
  }
}

/**
 * The queue as the page sees it: its rows, their summary, and the calls the page makes. The work
 * itself (IndexedDB, requests, retries, the network's events) is queue-runner.ts, fetched when a
 * file is picked, the guest reaches for the picker, or an earlier visit left files to resume: a
 * guest's first load carries only this half.
 */
function createQueue() {
  const t = useMessages()
  const state: QueueState = {
    items: ref<QueueItem[]>([]),
    storageOk: ref(true),
    resumedCount: ref(0),
    restored: ref(false),
    words: { author: '', message: '' },
    restoredWords: ref<Words | null>(null),
    wordsGiven: false,
  }
  const { items, storageOk, resumedCount, restored, words } = state
  const online = ref(true)
  let started = false
  let runner: Promise<QueueRunner> | undefined
  /** The files picked on this page, by what the picker says of them: picking one again adds no second row. */
  const pickedFiles = new Map<string, string>()
  const identityOf = (file: File) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`

  /** The runner, fetched once and started with the queue; a failed fetch (offline) is asked again next time. */
  function loadRunner(): Promise<QueueRunner> {
    runner ??= import('./queue-runner').then(({ createQueueRunner }) => {
      const loaded = createQueueRunner(state, t)
      if (started) loaded.start()
      return loaded
    }).catch((error: unknown) => {
      runner = undefined
      throw error
    })
    return runner
  }

  /** Once, in the browser: listens for the network, and resumes what an earlier visit left, if any. */
  function start() {
    if (started || typeof window === 'undefined') return
    started = true
    online.value = !isOffline()
    // The queue lives as long as the tab: these listeners are added once, never per page visit.
    window.addEventListener('online', () => {
      online.value = true
    })
    window.addEventListener('offline', () => {
      online.value = false
    })
    void runner?.then(loaded => loaded.start())
    void keptUploadsMayExist().then((kept) => {
      if (kept) void loadRunner().catch(() => undefined)
      else if (!runner) restored.value = true
    })
  }

  /**
   * Picked files get their rows now, in the same task as the pick; then the runner checks them
   * and starts sending the acceptable ones at once (a guest who picks and puts the phone away
   * sends them), with the words given for them: by default the page's current name and message;
   * a recording sends its own (a voice message carries no photo caption). Answers the refused
   * ones, whose rows are gone by then.
   */
  /** `challengeId`: the couple's challenge these files answer (the guest picked them from its card). */
  async function addFiles(files: File[], limits: EventLimits, attached: { author: string, message: string } = words, challengeId: string | null = null): Promise<RefusedFile[]> {
    const picked: PickedFile[] = []
    for (const file of files) {
      const earlier = pickedFiles.get(identityOf(file))
      if (earlier && items.value.some(item => item.key === earlier)) continue
      const item = pickedRow(file, attached, challengeId)
      pickedFiles.set(identityOf(file), item.key)
      picked.push({ file, item })
    }
    items.value.push(...picked.map(({ item }) => item))
    let loaded: QueueRunner
    try {
      loaded = await loadRunner()
    }
    catch {
      // Offline before the page kept its sending code: nothing can be checked or sent yet.
      const keys = new Set(picked.map(({ item }) => item.key))
      items.value = items.value.filter(item => !keys.has(item.key))
      return picked.map(({ file }) => ({ name: file.name, reason: t.refusal.notReady }))
    }
    return loaded.addFiles(picked, limits)
  }

  /**
   * Once the page has painted and the browser idles: what a pick would otherwise wait for.
   * The sending code (the runner and its engine) is fetched, not run, so a file picked on a slow
   * network is checked and starts at once, instead of after a round trip per chunk; the queue's
   * store is not opened (a first visit leaves none). The engine is what every picked file needs;
   * code only some files need (a video's own tools) is imported where it is used and stays out of
   * this. And the number formatter a row's size is written with ("1,5 MB") is made: the first
   * one loads its locale's data, which took most of the time from a pick to its row (0.25–0.35 s
   * of 0.4–0.5 s on a busy phone emulation; bench/RESULTS.md, "Pick to row on a slow network").
   */
  function prefetch() {
    whenIdle(() => {
      t.format.bytes(1536)
      void import('./queue-runner').then(({ loadUploadEngine }) => loadUploadEngine()).catch(() => undefined)
    })
  }

  /** The guest reaches for the picker: the sending code is fetched while the chooser is open. */
  function prepare() {
    void loadRunner().then(loaded => loaded.prepare()).catch(() => undefined)
  }

  /**
   * The guest typed in the page's name or message (called at each key): files picked from now on
   * take them, and so do the files already on the page that this device can still change (the
   * runner's applyWords, which keeps them at once and tells the server once typing pauses).
   */
  function setWords(author: string, message: string) {
    state.wordsGiven = true
    words.author = cleanText(author, AUTHOR_MAX_LENGTH)
    words.message = cleanText(message, MESSAGE_MAX_LENGTH)
    if (items.value.length) void loadRunner().then(loaded => loaded.applyWords()).catch(() => undefined)
  }

  /** The guest left a field: its words go to the server now, without waiting for a pause. */
  function sendWords() {
    if (items.value.length) void loadRunner().then(loaded => loaded.flushWords()).catch(() => undefined)
  }

  /** Rows exist only once the runner made them, so these calls find it loaded. */
  const withRunner = <A extends unknown[], R>(call: (loaded: QueueRunner, ...args: A) => Promise<R> | R) =>
    async (...args: A): Promise<R> => call(await loadRunner(), ...args)
  const cancel = withRunner((loaded, key: string) => loaded.cancel(key))
  const retry = withRunner((loaded, key: string) => loaded.retry(key))
  const clearFinished = withRunner(loaded => loaded.clearFinished())
  const removeSent = withRunner((loaded, key: string) => loaded.removeSent(key))

  const busy = computed(() => items.value.some(item => ['queued', 'sending', 'paused', 'retrying', 'finishing'].includes(item.phase)))
  const allDone = computed(() => items.value.length > 0 && items.value.every(item => item.done))
  /** Files new to the gallery, and files whose bytes it already had ("Já enviada"): said apart. */
  const doneCount = computed(() => items.value.filter(item => item.done && !item.duplicate).length)
  const alreadyCount = computed(() => items.value.filter(item => item.done && item.duplicate).length)
  const awaitingApproval = computed(() => items.value.some(item => item.done && item.status === 'pending'))
  // A picked row still being checked is a file the guest sent (restored rows never stay `waiting`).
  const summary = computed(() => summarize(items.value.map(item => (item.phase === 'waiting' ? { ...item, phase: 'queued' as const } : item)), online.value))

  /**
   * Sending while online, yet no byte moved (and no file finished) for STALL_MS: a server or a
   * network that accepts connections and never answers. The transfers retry on their own; the
   * guest is told, instead of a percentage that silently stands still.
   */
  const stalled = ref(false)
  let lastMoved = Date.now()
  let stallTimer: ReturnType<typeof setInterval> | undefined
  // The queue outlives the page that first asked for it (one per tab): its watchers belong to no component.
  if (typeof window !== 'undefined') {
    effectScope(true).run(() => {
      watch(() => [summary.value.sentBytes, summary.value.done, summary.value.state], () => {
        lastMoved = Date.now()
        stalled.value = false
      })
      watch(() => summary.value.state === 'sending' && online.value, (sending) => {
        clearInterval(stallTimer)
        stalled.value = false
        if (!sending) return
        lastMoved = Date.now()
        stallTimer = setInterval(() => {
          stalled.value = Date.now() - lastMoved >= STALL_MS
        }, STALL_CHECK_MS)
      })
    })
  }

  return {
    items, words, online, storageOk, resumedCount, restored, restoredWords: state.restoredWords, busy, allDone, doneCount, alreadyCount, awaitingApproval, summary, stalled,
    start, prefetch, prepare, addFiles, setWords, sendWords, cancel, retry, clearFinished, removeSent,
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
