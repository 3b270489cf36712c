import { ErrorCode } from '#shared/errors'
import { ApiError } from '~/app-utils/api-error'
import { backoffDelay, isOffline, sleep, waitForOnline } from './backoff'
import type { QueueItem } from './item'
import type { SentWords } from './store'
import { patchSentUpload } from './transport'
import { undoLeftMs } from './undo'

/**
 * A queued file's name and message on their way to the server. The page gives every file on it
 * the words in its fields as they are typed (kept in IndexedDB at once, so a reload finds them);
 * the server gets them with init when it has not gone yet, else through the device's edit
 * (`PATCH /api/uploads/:id` with the undo token). Each edit carries a revision, so the server
 * drops one that arrives after a newer one (requests overtake each other on a slow network, and a
 * reloaded page cannot call back what it sent); the page sends one edit at a time per file.
 */

export interface Words { author: string, message: string }

type HoldsWords = Pick<QueueItem, 'author' | 'message' | 'uploadId' | 'done' | 'duplicate' | 'errorFinal' | 'undo' | 'wordsRevision' | 'wordsSent' | 'wordsLocked'>

/** This device may still change the file's words: not a copy of an earlier upload, not refused, not locked by the couple, not past its window. */
export function wordsEditable(item: HoldsWords, now = Date.now()): boolean {
  return !item.duplicate && !item.errorFinal && !item.wordsLocked && !(item.done && undoLeftMs(item, now) === 0)
}

/**
 * Gives the file new words, with a revision above every earlier one: the clock (a reloaded page's
 * edits come after the ones it sent before), and never less than the last one plus one (a clock set back).
 * Answers whether anything changed.
 */
export function setItemWords(item: HoldsWords, words: Words, now = Date.now()): boolean {
  if (item.author === words.author && item.message === words.message) return false
  item.author = words.author
  item.message = words.message
  item.wordsRevision = Math.max(now, (item.wordsRevision ?? 0) + 1)
  return true
}

/** The words as they are now, to send. */
export function wordsToSend(item: HoldsWords): SentWords {
  return { author: item.author, message: item.message, revision: item.wordsRevision ?? 0 }
}

/** The server has the file's upload, and not yet its latest words from this device. */
export function wordsOwed(item: HoldsWords, now = Date.now()): boolean {
  if (!item.uploadId || !item.undo || !wordsEditable(item, now)) return false
  return !item.wordsSent || item.wordsSent.revision < (item.wordsRevision ?? 0)
}

/** The couple changed the words: their words stay, and this device stops sending its own. */
function lockedBy(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === ErrorCode.WORDS_LOCKED
}

/** Where the sender writes down what the server took, and how it knows the guest removed the file. */
interface WordsSenderOptions {
  persist: (item: QueueItem) => Promise<void>
  gone: (item: QueueItem) => boolean
}

/**
 * Sends files' words, one edit at a time per file: while one is on its way, newer words wait, and
 * once it is answered the latest go (the ones between are never sent). A refusal ends the file's
 * sending until its words change again (an expired window, a wrong token); 409 WORDS_LOCKED ends it
 * for good; a lost connection or a busy server is tried again after a pause.
 */
export function createWordsSender({ persist, gone }: WordsSenderOptions) {
  const sending = new Set<string>()
  // The page's own pauses end with it: nothing aborts them but a removed file, checked after each.
  const never = new AbortController().signal

  async function sendLatest(item: QueueItem) {
    let attempt = 0
    try {
      while (wordsOwed(item) && !gone(item)) {
        const uploadId = item.uploadId!
        const words = wordsToSend(item)
        try {
          await patchSentUpload(uploadId, item.undo!.token, words)
          attempt = 0
          // A file started over meanwhile (its upload was swept) has other words on the server.
          if (item.uploadId !== uploadId) continue
          item.wordsSent = words
          await persist(item)
        }
        catch (error) {
          if (lockedBy(error)) {
            item.wordsLocked = true
            // What the couple wrote, when the answer says; else unknown here.
            const { author, message } = error.data
            item.wordsSent = typeof author === 'string' && typeof message === 'string' ? { author, message, revision: item.wordsRevision ?? 0 } : null
            await persist(item)
            return
          }
          if (!(error instanceof ApiError) || !error.transient) return
          if (isOffline()) await waitForOnline(never)
          else await sleep(error.retryAfter ? error.retryAfter * 1000 : backoffDelay(attempt++), never)
        }
      }
    }
    finally {
      sending.delete(item.key)
    }
  }

  /** Sends the file's latest words if the server lacks them; nothing when they are on their way already. */
  return function sendWords(item: QueueItem): void {
    if (sending.has(item.key) || !wordsOwed(item)) return
    sending.add(item.key)
    void sendLatest(item)
  }
}
