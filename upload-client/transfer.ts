import { CLIENT_KEY_PATTERN } from '#shared/client-key'
import { ErrorCode } from '#shared/errors'
import { FILE_NAME_MAX_LENGTH, PART_SIZE_BYTES, partSize } from '#shared/limits'
import type { ConfirmUploadResponse, InitAnswer, InitUploadResponse, UploadTarget } from '#shared/schemas/upload'
import { withoutVideoLocation } from '#shared/media/video-location-blob'
import { UNDO_TOKEN_HEADER } from '#shared/undo'
import { ApiError } from '~/app-utils/api-error'
import { abortError, isAbort } from './abort'
import { backoffDelay, isOffline, sleep } from './backoff'
import { fingerprint, markDuplicate } from './duplicates'
import { ClientCode } from './failures'
import { bytesOfDoneParts, forgetUpload, missingParts, type ItemPhase, type QueueItem } from './item'
import { wordsToSend } from './item-words'
import { postJson, requestJson, type PutBlob } from './transport'
import { grantUndo, openUndoWindow } from './undo'

/**
 * One file's way to the server: init (or resume), fresh signed URLs, the bytes (one PUT, or parts
 * side by side), the poster of a video, and confirm; each request retried until it succeeds or
 * fails for a reason retrying cannot fix. It runs in the page and in the service worker's
 * Background Sync (service-worker/upload-sync.ts): what differs between the two is handed in as a
 * TransferEnvironment (page-transfer.ts is the page's).
 */

/**
 * A best-effort extra made while a file's bytes go and sent just before its confirm (a video's
 * poster, a photo's public images): `send` answers whether it arrived and never throws.
 */
export interface TransferExtra {
  send: (uploadId: string, signal: AbortSignal) => Promise<boolean>
  /** Called once init (or a resume) answered, while the bytes go: an extra that depends on init's answer starts then. */
  prepare?: () => void
}

/** What one file's way needs from where it runs: a page (a document, workers, XHR) or the service worker (none of them). */
export interface TransferEnvironment {
  /** PUTs bytes to a signed URL, reporting the bytes sent when it can. */
  put: PutBlob
  /** SHA-256 (hex) of the bytes about to be sent. */
  hash: (bytes: Blob) => Promise<string>
  /**
   * Called while the browser is offline: the page waits for the network; the service worker
   * waits a few seconds at most, then throws, ending its sync event so the browser tries again
   * once the network is back.
   */
  waitForNetwork: (signal: AbortSignal) => Promise<void>
  /**
   * Requests that got no answer while the browser says it is online, before the file gives up:
   * the page never does (a phone's connection comes back), the service worker soon does (its
   * sync event has minutes, and the browser fires another later).
   */
  maxLostConnections: number
  /**
   * When the file was taken, from its own metadata (shared/media/taken-at.ts), read before
   * anything is stripped; absent (the service worker), the file goes without one.
   */
  takenAt?: (file: Blob, contentType: string) => Promise<string | null>
  /** The extras of this file, started now; none where they cannot be made (no document). */
  extras?: (item: QueueItem, file: Blob, signal: AbortSignal) => TransferExtra[]
}

/** Parts of one large file sent at the same time. */
const PART_CONCURRENCY = 3
/** A server error (5xx) this many times in a row ends the attempt; a lost connection, only as TransferEnvironment says. */
const MAX_SERVER_FAILURES = 6
/** Presigned URLs this close to expiry are renewed before use. */
const URL_MARGIN_MS = 60_000
/** A confirm that finds parts missing sends them again, but not forever. */
const MAX_REPAIRS = 2
/** A refused URL (expired signature) is renewed this many times before the refusal counts. */
const MAX_URL_REFUSALS = 3

/** Saves what the queue remembers of an item (after init, and after each acknowledged part). */
type Persist = (item: QueueItem) => Promise<void>

/** Where the bytes of one upload go, renewed when the URLs are about to expire or were refused. */
interface Destination {
  upload: UploadTarget
  expiresAt: number
}

/** One file on its way: the item, the guest's cancel, how its progress is saved, and where it runs. */
interface Trip {
  item: QueueItem
  signal: AbortSignal
  persist: Persist
  env: TransferEnvironment
}

/**
 * Runs a request until it succeeds or fails for a reason retrying cannot fix. While the browser
 * is offline it waits for the connection without counting (or, in the service worker, gives up:
 * see TransferEnvironment); otherwise it backs off exponentially (or as long as the server's
 * `retry-after` says).
 */
async function retrying<T>({ item, env }: Trip, signal: AbortSignal, activePhase: ItemPhase, operation: () => Promise<T>): Promise<T> {
  let serverFailures = 0
  let lostConnections = 0
  let attempt = 0
  for (;;) {
    try {
      const result = await operation()
      if (item.phase === 'retrying' || item.phase === 'paused') item.phase = activePhase
      return result
    }
    catch (error) {
      if (isAbort(error) || !(error instanceof ApiError)) throw error
      const renewedUrl = error.code === ClientCode.URL_REFUSED
      if (!error.transient && !renewedUrl) throw error
      if (isOffline()) {
        item.phase = 'paused'
        await env.waitForNetwork(signal)
        item.phase = activePhase
        continue
      }
      if (error.status !== null && !renewedUrl && ++serverFailures > MAX_SERVER_FAILURES) throw error
      if (error.status === null && ++lostConnections > env.maxLostConnections) throw error
      item.phase = 'retrying'
      await sleep(error.retryAfter ? error.retryAfter * 1000 : backoffDelay(attempt++), signal)
      item.phase = activePhase
    }
  }
}

/** What init is told of a file, with the words as they are now. */
function initBody(item: QueueItem, words: { author: string, message: string }) {
  return {
    fileName: item.fileName.slice(0, FILE_NAME_MAX_LENGTH) || 'arquivo',
    contentType: item.contentType,
    size: item.size,
    // Videos and spoken guestbook messages (audio) declare their length.
    ...(item.kind !== 'photo' && item.durationSec ? { durationSec: item.durationSec } : {}),
    author: words.author,
    message: words.message,
    ...(item.hash ? { hash: item.hash } : {}),
    ...(item.challengeId ? { challengeId: item.challengeId } : {}),
    ...(item.takenAt ? { takenAt: item.takenAt } : {}),
    // Init tried again (its answer lost, or the phone's other sender first) answers the same upload.
    ...(CLIENT_KEY_PATTERN.test(item.key) ? { clientKey: item.key } : {}),
  }
}

/** Init's 400 names this field (docs/api.md: an inactive or unknown challenge, a takenAt too far ahead). */
function refusedField(error: unknown, field: 'challengeId' | 'takenAt'): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false
  const issues = error.data.issues
  return Array.isArray(issues) && issues.some(issue => Array.isArray(issue?.path) && issue.path[0] === field)
}

/** Null when the server already has these bytes (the item is then marked a duplicate). */
async function init(trip: Trip): Promise<Destination | null> {
  const { item, signal, persist } = trip
  // Each try carries the words as they are then: the guest may be typing while init retries.
  let words = wordsToSend(item)
  const response = await retrying(trip, signal, 'sending', async () => {
    words = wordsToSend(item)
    try {
      return await postJson<InitAnswer>('/api/uploads/init', initBody(item, words), signal)
    }
    catch (error) {
      // The challenge was deleted or switched off while the file waited, or the phone's clock or
      // its file's date is off by more than the server takes: the photo still goes without them
      // (both at once, when one answer refused both), rather than stay stuck on a refusal no retry can change.
      const dropChallenge = !!item.challengeId && refusedField(error, 'challengeId')
      const dropTakenAt = !!item.takenAt && refusedField(error, 'takenAt')
      if (!dropChallenge && !dropTakenAt) throw error
      if (dropChallenge) item.challengeId = null
      if (dropTakenAt) item.takenAt = null
      await trip.persist(item)
      return postJson<InitAnswer>('/api/uploads/init', initBody(item, words), signal)
    }
  })
  if ('duplicate' in response) {
    markDuplicate(item, response.id)
    await persist(item)
    return null
  }
  grantUndo(item, response)
  // Words typed while init was on its way are owed: the queue sends them next (item-words.ts).
  item.wordsSent = words
  item.uploadId = response.id
  item.uploadType = response.upload.type
  item.displayCopy = response.displayCopy
  item.partsDone = []
  await persist(item)
  return { upload: response.upload, expiresAt: Date.parse(response.expiresAt) }
}

/** Fresh URLs for what is still to send (only the missing parts); null when nothing is. */
async function refresh(trip: Trip): Promise<Destination | null> {
  const { item, signal } = trip
  const missing = item.uploadType === 'multipart' ? missingParts(item) : []
  if (item.uploadType === 'multipart' && missing.length === 0) return null
  const response = await retrying(trip, signal, 'sending', () =>
    postJson<InitUploadResponse>(`/api/uploads/${item.uploadId}/refresh`, item.uploadType === 'multipart' ? { partNumbers: missing } : {}, signal))
  return { upload: response.upload, expiresAt: Date.parse(response.expiresAt) }
}

/** Where to send: a new upload, or the one this file already has (after a reload, say). */
async function destination(trip: Trip): Promise<Destination | null> {
  if (!trip.item.uploadId) return init(trip)
  try {
    return await refresh(trip)
  }
  catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      // The server no longer knows it (unfinished uploads are swept after a day): start over.
      forgetUpload(trip.item)
      return init(trip)
    }
    // Confirmed already (the answer was lost on the way): confirm again gives the result.
    if (error instanceof ApiError && error.code === ErrorCode.ALREADY_CONFIRMED) return null
    throw error
  }
}

/** Keeps one upload's URLs fresh; concurrent parts share one renewal. */
function urlBook(trip: Trip, first: Destination) {
  let current = first
  let stale = false
  let renewing: Promise<void> | null = null
  const renew = () => {
    renewing ??= refresh(trip).then((next) => {
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
      if (!part) throw new ApiError(409, ErrorCode.OBJECT_MISSING)
      return { url: part.url, headers: upload.headers }
    },
  }
}

type UrlBook = ReturnType<typeof urlBook>

/** One PUT (the whole file or one part), retried with back-off; a refused URL is renewed first. */
async function putWithRetry(trip: Trip, book: UrlBook, body: Blob, partNumber: number | undefined, onProgress: (loaded: number) => void, signal: AbortSignal) {
  let refusals = 0
  await retrying(trip, signal, 'sending', async () => {
    const { url, headers } = await book.target(partNumber)
    // A failed body counts as unsent only when the next try really starts again: while the queue
    // waits for the network the bar keeps what it had reached, and a guest never sees it empty
    // or full for a file that is merely paused.
    onProgress(0)
    try {
      await trip.env.put(url, body, headers, onProgress, signal)
    }
    catch (error) {
      if (error instanceof ApiError && error.status === 403 && refusals++ < MAX_URL_REFUSALS) {
        // Expired or refused signature: renew the URL and try again.
        book.invalidate()
        throw new ApiError(403, ClientCode.URL_REFUSED)
      }
      throw error
    }
  })
}

async function sendSingle(trip: Trip, file: Blob, book: UrlBook) {
  await putWithRetry(trip, book, file, undefined, (loaded) => {
    trip.item.sentBytes = loaded
  }, trip.signal)
}

async function sendParts(trip: Trip, file: Blob, book: UrlBook) {
  const { item, signal, persist } = trip
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
      await putWithRetry(trip, book, bytes, partNumber, (loaded) => {
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
    throw signal.aborted ? abortError() : error
  }
  finally {
    signal.removeEventListener('abort', stop)
  }
}

/**
 * What goes over the wire: a video with its recorded position blanked (same size, media untouched,
 * stitched from slices of the picked file, so nothing is copied), else the file as picked. The
 * scan is deterministic, so a resumed upload sends the very bytes its earlier parts came from. A
 * video the page cannot read goes as it is: confirm scans it again and cleans or refuses it.
 */
async function bytesToSend(item: QueueItem, file: Blob): Promise<Blob> {
  if (item.kind !== 'video') return file
  const cleaned = await withoutVideoLocation(file, item.contentType).catch(() => null)
  return cleaned?.ok ? cleaned.blob : file
}

/**
 * init or resume, bytes, confirm; a confirm that finds bytes missing sends them again. Bytes the
 * server or this queue (`pickedTwice`) already has are not sent: the item comes back a duplicate.
 */
export async function transferUpload(
  item: QueueItem,
  signal: AbortSignal,
  persist: Persist,
  env: TransferEnvironment,
  pickedTwice: (item: QueueItem) => boolean = () => false,
) {
  if (!item.file) throw new ApiError(410, ClientCode.FILE_GONE)
  const trip: Trip = { item, signal, persist, env }
  if (item.takenAt === undefined && env.takenAt && item.kind !== 'audio') {
    item.takenAt = await env.takenAt(item.file, item.contentType).catch(() => null)
    await persist(item)
  }
  const file = await bytesToSend(item, item.file)
  await fingerprint(item, file, persist, env.hash)
  if (!item.uploadId && pickedTwice(item)) return markDuplicate(item, null)
  // A video's poster frame (a photo's public images) is made while its bytes go, and sent just
  // before the confirm (the server takes it only then), once per upload. Best effort: it never
  // fails the upload, and waits seconds at most.
  const extras = env.extras?.(item, file, signal) ?? []
  let extrasSentFor: string | null = null
  let target = await destination(trip)
  for (const extra of extras) extra.prepare?.()
  for (let repairs = 0; ; repairs++) {
    if (item.duplicate) return
    if (target) {
      item.phase = 'sending'
      const book = urlBook(trip, target)
      try {
        if (target.upload.type === 'single') await sendSingle(trip, file, book)
        else await sendParts(trip, file, book)
      }
      catch (error) {
        // The server holds these bytes and is confirming them, or has (a confirm this page asked
        // before a reload, answered after it): confirm again gives that confirm's result.
        if (!(error instanceof ApiError && error.code === ErrorCode.ALREADY_CONFIRMED)) throw error
      }
    }
    item.phase = 'finishing'
    if (extras.length && item.uploadId && extrasSentFor !== item.uploadId) {
      extrasSentFor = item.uploadId
      for (const extra of extras) {
        await extra.send(item.uploadId, signal)
        if (signal.aborted) throw abortError()
      }
    }
    try {
      const result = await retrying(trip, signal, 'finishing', () =>
        // The undo token shows it is this device's upload: a repeated confirm then tells its status now.
        requestJson<ConfirmUploadResponse>(`/api/uploads/${item.uploadId}/confirm`, { signal, headers: item.undo ? { [UNDO_TOKEN_HEADER]: item.undo.token } : {} }))
      item.status = result.status
      openUndoWindow(item)
      return
    }
    catch (error) {
      if (!(error instanceof ApiError) || repairs >= MAX_REPAIRS) throw error
      if (error.code === ErrorCode.OBJECT_MISSING) {
        const missing = Array.isArray(error.data.missingParts) ? error.data.missingParts as number[] : null
        item.partsDone = missing ? item.partsDone.filter(n => !missing.includes(n)) : []
        await persist(item)
        target = await refresh(trip)
        continue
      }
      if (error.status === 404) {
        forgetUpload(item)
        target = await init(trip)
        continue
      }
      throw error
    }
  }
}
