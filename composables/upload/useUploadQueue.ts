import { computed, markRaw, reactive, ref } from 'vue'
import { ErrorCode } from '~~/shared/errors'
import { PART_SIZE_BYTES, partLayout, partSize } from '~~/shared/limits'
import type { ConfirmUploadResponse, InitUploadResponse, UploadTarget } from '~~/shared/schemas/upload'
import type { EventLimits } from '~~/shared/media/checks'
import { checkMediaFile } from './media-checks'
import { useMessages } from '../useMessages'
import { makeThumbnail } from './thumbnail'
import { useUploadStore, type UploadRecord } from './store'
import { captureVideoPoster, sendVideoPoster } from './video-poster'
import {
  backoffDelay, HttpError, isAbort, isOffline, NetworkError, postJson, putBlob, sleep, waitForOnline, wakeSleepers,
} from './transport'

/** The row states the page shows (and tests read from `data-state`). */
export type ItemState = 'queued' | 'uploading' | 'done' | 'error'
/** Finer steps, for the words under each row. */
export type ItemPhase = 'waiting' | 'queued' | 'sending' | 'paused' | 'retrying' | 'finishing' | 'done' | 'error'

export interface QueueItem extends UploadRecord {
  file: Blob | null
  phase: ItemPhase
  /** Bytes the storage has received or is receiving right now, for the progress bar. */
  sentBytes: number
  thumbUrl: string | null
}

export interface RefusedFile { name: string, reason: string }

/** Files sent at the same time: two hides each file's round trips without splitting a weak uplink too thin. */
const FILE_CONCURRENCY = 2
/** Parts of one large file sent at the same time. */
const PART_CONCURRENCY = 3
/** A server error (5xx) this many times in a row ends the attempt; a lost connection never does. */
const MAX_SERVER_FAILURES = 6
/** Presigned URLs this close to expiry are renewed before use. */
const URL_MARGIN_MS = 60_000
/** Finished rows from an earlier visit are forgotten after this long. */
const FINISHED_KEPT_MS = 12 * 3600_000
/** A confirm that finds parts missing sends them again, but not forever. */
const MAX_REPAIRS = 2

export function itemState(item: Pick<QueueItem, 'phase'>): ItemState {
  switch (item.phase) {
    case 'waiting':
    case 'queued':
      return 'queued'
    case 'done':
      return 'done'
    case 'error':
      return 'error'
    default:
      return 'uploading'
  }
}

export function itemPercent(item: Pick<QueueItem, 'sentBytes' | 'size' | 'phase'>): number {
  if (item.phase === 'done') return 100
  if (!item.size) return 0
  return Math.min(100, Math.floor((item.sentBytes / item.size) * 100))
}

function missingParts(item: QueueItem): number[] {
  const { partCount } = partLayout(item.size)
  const done = new Set(item.partsDone)
  return Array.from({ length: partCount }, (_, index) => index + 1).filter(n => !done.has(n))
}

function bytesOfDoneParts(item: QueueItem): number {
  return item.partsDone.reduce((sum, n) => sum + partSize(item.size, n), 0)
}

function toRecord(item: QueueItem): UploadRecord {
  return {
    key: item.key, fileName: item.fileName, contentType: item.contentType, kind: item.kind, size: item.size,
    durationSec: item.durationSec, author: item.author, message: item.message, addedAt: item.addedAt,
    submitted: item.submitted, uploadId: item.uploadId, uploadType: item.uploadType, partsDone: [...item.partsDone],
    done: item.done, status: item.status, error: item.error, errorFinal: item.errorFinal,
  }
}

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

/** Where the bytes of one upload go, renewed when the URLs are about to expire or were refused. */
interface Destination {
  upload: UploadTarget
  expiresAt: number
}

function createQueue() {
  const t = useMessages()
  const store = useUploadStore()
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

  /**
   * Runs a request until it succeeds or fails for a reason retrying cannot fix. While the browser
   * is offline it waits for the connection without counting; otherwise it backs off exponentially.
   */
  async function retrying<T>(item: QueueItem, signal: AbortSignal, activePhase: ItemPhase, operation: () => Promise<T>): Promise<T> {
    let serverFailures = 0
    let attempt = 0
    for (;;) {
      try {
        const result = await operation()
        if (item.phase === 'retrying' || item.phase === 'paused') item.phase = activePhase
        return result
      }
      catch (error) {
        if (isAbort(error)) throw error
        const transient = error instanceof NetworkError || (error instanceof HttpError && error.transient)
        if (!transient) throw error
        if (isOffline()) {
          item.phase = 'paused'
          await waitForOnline(signal)
          item.phase = activePhase
          continue
        }
        if (error instanceof HttpError && error.status !== 0 && ++serverFailures > MAX_SERVER_FAILURES) throw error
        item.phase = 'retrying'
        const wait = error instanceof HttpError && error.retryAfterSec ? error.retryAfterSec * 1000 : backoffDelay(attempt++)
        await sleep(wait, signal)
        item.phase = activePhase
      }
    }
  }

  async function init(item: QueueItem, signal: AbortSignal): Promise<Destination> {
    const body = {
      fileName: item.fileName.slice(0, 255) || 'arquivo',
      contentType: item.contentType,
      size: item.size,
      ...(item.kind === 'video' && item.durationSec ? { durationSec: item.durationSec } : {}),
      author: item.author,
      message: item.message,
    }
    const response = await retrying(item, signal, 'sending', () => postJson<InitUploadResponse>('/api/uploads/init', body, signal))
    item.uploadId = response.id
    item.uploadType = response.upload.type
    item.partsDone = []
    await persist(item)
    return { upload: response.upload, expiresAt: Date.parse(response.expiresAt) }
  }

  /** Fresh URLs for what is still to send (only the missing parts); null when nothing is. */
  async function refresh(item: QueueItem, signal: AbortSignal): Promise<Destination | null> {
    const missing = item.uploadType === 'multipart' ? missingParts(item) : []
    if (item.uploadType === 'multipart' && missing.length === 0) return null
    const response = await retrying(item, signal, 'sending', () =>
      postJson<InitUploadResponse>(`/api/uploads/${item.uploadId}/refresh`, item.uploadType === 'multipart' ? { partNumbers: missing } : {}, signal))
    return { upload: response.upload, expiresAt: Date.parse(response.expiresAt) }
  }

  function forget(item: QueueItem) {
    item.uploadId = null
    item.uploadType = null
    item.partsDone = []
    item.sentBytes = 0
  }

  /** Where to send: a new upload, or the one this file already has (after a reload, say). */
  async function destination(item: QueueItem, signal: AbortSignal): Promise<Destination | null> {
    if (!item.uploadId) return init(item, signal)
    try {
      return await refresh(item, signal)
    }
    catch (error) {
      if (error instanceof HttpError && error.status === 404) {
        // The server no longer knows it (unfinished uploads are swept after a day): start over.
        forget(item)
        return init(item, signal)
      }
      // Confirmed already (the answer was lost on the way): confirm again gives the result.
      if (error instanceof HttpError && error.code === ErrorCode.ALREADY_CONFIRMED) return null
      throw error
    }
  }

  /** Keeps one upload's URLs fresh; concurrent parts share one renewal. */
  function urlBook(item: QueueItem, first: Destination, signal: AbortSignal) {
    let current = first
    let stale = false
    let renewing: Promise<void> | null = null
    const renew = () => {
      renewing ??= refresh(item, signal).then((next) => {
        if (next) current = next
        stale = false
      }).finally(() => {
        renewing = null
      })
      return renewing
    }
    return {
      invalidate() {
        stale = true
      },
      async target(partNumber?: number): Promise<{ url: string, headers?: Record<string, string> }> {
        const hasPart = (d: Destination) => d.upload.type === 'single' || d.upload.parts.some(p => p.partNumber === partNumber)
        if (stale || current.expiresAt - Date.now() < URL_MARGIN_MS || !hasPart(current)) await renew()
        const upload = current.upload
        if (upload.type === 'single') return { url: upload.url, headers: upload.headers }
        const part = upload.parts.find(p => p.partNumber === partNumber)
        if (!part) throw new HttpError(409, ErrorCode.OBJECT_MISSING)
        return { url: part.url, headers: upload.headers }
      },
    }
  }

  type UrlBook = ReturnType<typeof urlBook>

  /** One PUT (the whole file or one part), retried with back-off; a refused URL is renewed first. */
  async function putWithRetry(item: QueueItem, book: UrlBook, body: Blob, partNumber: number | undefined, onProgress: (loaded: number) => void, signal: AbortSignal) {
    let refusals = 0
    await retrying(item, signal, 'sending', async () => {
      const { url, headers } = await book.target(partNumber)
      try {
        await putBlob(url, body, headers, onProgress, signal)
      }
      catch (error) {
        onProgress(0)
        if (error instanceof HttpError && error.status === 403 && refusals++ < 3) {
          // Expired or refused signature: renew the URL and try again (status 0 counts as transient).
          book.invalidate()
          throw new HttpError(0, 'URL_REFUSED')
        }
        throw error
      }
    })
  }

  async function sendSingle(item: QueueItem, file: Blob, book: UrlBook, signal: AbortSignal) {
    await putWithRetry(item, book, file, undefined, (loaded) => {
      item.sentBytes = loaded
    }, signal)
  }

  async function sendParts(item: QueueItem, file: Blob, book: UrlBook, signal: AbortSignal) {
    const todo = missingParts(item)
    const inFlight = new Map<number, number>()
    const showProgress = () => {
      let sending = 0
      for (const loaded of inFlight.values()) sending += loaded
      item.sentBytes = bytesOfDoneParts(item) + sending
    }
    showProgress()
    // One failure that cannot be retried stops the sibling parts too.
    const siblings = new AbortController()
    const stop = () => siblings.abort()
    signal.addEventListener('abort', stop, { once: true })
    let next = 0
    const worker = async () => {
      while (next < todo.length) {
        const partNumber = todo[next++]!
        const start = (partNumber - 1) * PART_SIZE_BYTES
        const bytes = file.slice(start, start + partSize(item.size, partNumber))
        await putWithRetry(item, book, bytes, partNumber, (loaded) => {
          inFlight.set(partNumber, loaded)
          showProgress()
        }, siblings.signal)
        inFlight.delete(partNumber)
        if (!item.partsDone.includes(partNumber)) item.partsDone.push(partNumber)
        showProgress()
        await persist(item)
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, todo.length) }, worker))
    }
    catch (error) {
      siblings.abort()
      throw signal.aborted ? new DOMException('Aborted', 'AbortError') : error
    }
    finally {
      signal.removeEventListener('abort', stop)
    }
  }

  /** init or resume, bytes, confirm; a confirm that finds bytes missing sends them again. */
  async function transfer(item: QueueItem, signal: AbortSignal) {
    const file = item.file
    if (!file) throw new HttpError(410, 'FILE_GONE')
    // A video's poster frame is drawn while its bytes go, and sent just before the confirm (the
    // server takes it only then). Best effort: it never fails the upload, and waits seconds at most.
    const poster = item.kind === 'video' ? captureVideoPoster(file) : null
    let posterSentFor: string | null = null
    let target = await destination(item, signal)
    for (let repairs = 0; ; repairs++) {
      if (target) {
        item.phase = 'sending'
        const book = urlBook(item, target, signal)
        if (target.upload.type === 'single') await sendSingle(item, file, book, signal)
        else await sendParts(item, file, book, signal)
      }
      item.phase = 'finishing'
      if (poster && item.uploadId && posterSentFor !== item.uploadId) {
        posterSentFor = item.uploadId
        await sendVideoPoster(item.uploadId, poster, signal)
        if (signal.aborted) throw new DOMException('Aborted', 'AbortError')
      }
      try {
        const result = await retrying(item, signal, 'finishing', () =>
          postJson<ConfirmUploadResponse>(`/api/uploads/${item.uploadId}/confirm`, {}, signal))
        item.status = result.status
        return
      }
      catch (error) {
        if (!(error instanceof HttpError) || repairs >= MAX_REPAIRS) throw error
        if (error.code === ErrorCode.OBJECT_MISSING) {
          const missing = Array.isArray(error.data.missingParts) ? error.data.missingParts as number[] : null
          item.partsDone = missing ? item.partsDone.filter(n => !missing.includes(n)) : []
          await persist(item)
          target = await refresh(item, signal)
          continue
        }
        if (error.status === 404) {
          forget(item)
          target = await init(item, signal)
          continue
        }
        throw error
      }
    }
  }

  /** The words for a failure, and whether the file itself is the problem. */
  function describeFailure(item: QueueItem, error: unknown): { words: string, final: boolean } {
    if (!(error instanceof HttpError)) return { words: t.refusal.failed, final: false }
    const limit = typeof error.data.limit === 'number' ? error.data.limit : null
    switch (error.code) {
      case ErrorCode.FILE_TOO_LARGE:
        return { words: t.refusal.tooLarge(item.size, limit ?? item.size), final: true }
      case ErrorCode.VIDEO_TOO_LONG:
        return { words: item.durationSec && limit ? t.refusal.tooLong(item.durationSec, limit) : t.refusal.tooLongNoDuration(limit ?? 0), final: true }
      case ErrorCode.VIDEOS_DISABLED:
        return { words: t.refusal.videosDisabled, final: true }
      case ErrorCode.DURATION_REQUIRED:
        return { words: t.refusal.durationUnreadable, final: true }
      case ErrorCode.UNSUPPORTED_TYPE:
        return { words: t.refusal.unsupported, final: true }
      case ErrorCode.CONTENT_MISMATCH:
        return { words: t.refusal.contentMismatch, final: true }
      case 'FILE_GONE':
        return { words: t.refusal.gone, final: true }
      case ErrorCode.RATE_LIMITED:
        return { words: t.refusal.rateLimited, final: false }
      default:
        return { words: t.refusal.failed, final: false }
    }
  }

  async function run(item: QueueItem) {
    running.add(item.key)
    const controller = new AbortController()
    controllers.set(item.key, controller)
    item.phase = 'sending'
    item.error = null
    try {
      await transfer(item, controller.signal)
      item.done = true
      item.phase = 'done'
      item.sentBytes = item.size
      item.file = null
      await persist(item)
      // The bytes are on the server: the copy in the browser's storage is no longer needed.
      await store.removeFile(item.key)
    }
    catch (error) {
      if (!isAbort(error)) {
        const { words, final } = describeFailure(item, error)
        // The server removed a record it refused after the bytes arrived; a new try starts over.
        if (error instanceof HttpError && error.code === ErrorCode.CONTENT_MISMATCH) forget(item)
        item.phase = 'error'
        item.error = words
        item.errorFinal = final
        await persist(item)
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
    for (const record of records) {
      if (find(record.key) || removed.has(record.key)) continue
      if (record.done && Date.now() - record.addedAt > FINISHED_KEPT_MS) {
        await store.remove(record.key)
        continue
      }
      const file = record.done ? null : await store.loadFile(record.key)
      const item = reactive<QueueItem>({ ...record, file: file ? markRaw(file) : null, phase: 'waiting', sentBytes: 0, thumbUrl: null }) as QueueItem
      if (record.done) {
        item.phase = 'done'
        item.sentBytes = record.size
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
    pump()
  }

  /** Once, in the browser: brings back what an earlier visit left and listens for the network. */
  function start() {
    if (started || typeof window === 'undefined') return
    started = true
    online.value = !isOffline()
    // The queue lives as long as the tab: these listeners are added once, never per page visit.
    window.addEventListener('online', () => {
      online.value = true
      wakeSleepers()
      requeueFailed()
    })
    window.addEventListener('offline', () => {
      online.value = false
    })
    // A phone unlocked: requests the system froze meanwhile are retried now, not after the back-off.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'visible') return
      wakeSleepers()
      pump()
    })
    void restore()
  }

  /** Checks picked files and adds the acceptable ones, waiting for the send button; answers the refused ones. */
  async function addFiles(files: File[], limits: EventLimits): Promise<RefusedFile[]> {
    const refused: RefusedFile[] = []
    for (const file of files) {
      const check = await checkMediaFile(file, limits)
      if (!check.ok) {
        refused.push({ name: file.name, reason: check.reason })
        continue
      }
      const item = reactive<QueueItem>({
        key: newKey(), fileName: file.name, contentType: check.contentType, kind: check.kind, size: file.size,
        durationSec: check.durationSec, author: '', message: '', addedAt: Date.now(), submitted: false,
        uploadId: null, uploadType: null, partsDone: [], done: false, status: null, error: null, errorFinal: false,
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
    const cleanAuthor = cleanText(author, 80)
    const cleanMessage = cleanText(message, 1000)
    for (const item of items.value) {
      if (item.phase !== 'waiting') continue
      item.author = cleanAuthor
      item.message = cleanMessage
      item.submitted = true
      item.phase = 'queued'
      void persist(item)
    }
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

  return {
    items, online, storageOk, resumedCount, restored, waitingCount, busy, allDone, doneCount, awaitingApproval,
    start, addFiles, submit, cancel, retry, clearFinished,
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
