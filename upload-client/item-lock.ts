import { abortError, isAbort } from './abort'

/**
 * One sender per queued file, whoever sends it: the page's queue, another tab's, or the service
 * worker's Background Sync (service-worker/upload-sync.ts) after the tab was closed. Web Locks
 * are shared by a site's pages and its worker, and a lock is let go by itself when the page
 * holding it goes away (closed, reloaded, crashed), so a file is never left locked.
 */

const LOCK_PREFIX = 'upload-queue:'

export function itemLockName(key: string): string {
  return `${LOCK_PREFIX}${key}`
}

export type Locked<T> = { ran: true, value: T } | { ran: false }

interface LockOptions {
  /** Ends the wait for the lock (the guest removed the file): rejects with an AbortError. */
  signal?: AbortSignal
  /** Gives up waiting after this long and answers `{ ran: false }` (another sender is alive). */
  waitMs?: number
}

/**
 * Runs `work` holding the file's lock, once every other sender has let it go. Where the browser
 * has no Web Locks (Safari before 15.4) it runs at once, as before: there is no Background Sync
 * to compete with there either.
 */
export async function withItemLock<T>(key: string, work: () => Promise<T>, { signal, waitMs }: LockOptions = {}): Promise<Locked<T>> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  if (!locks) return { ran: true, value: await work() }
  if (signal?.aborted) throw abortError()
  const waiting = new AbortController()
  const stop = () => waiting.abort()
  signal?.addEventListener('abort', stop, { once: true })
  const timer = waitMs === undefined ? undefined : setTimeout(stop, waitMs)
  let granted = false
  try {
    const value = await locks.request(itemLockName(key), { signal: waiting.signal }, () => {
      granted = true
      clearTimeout(timer)
      return work()
    })
    return { ran: true, value }
  }
  catch (error) {
    if (granted || !isAbort(error)) throw error
    if (signal?.aborted) throw abortError()
    return { ran: false }
  }
  finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', stop)
  }
}
