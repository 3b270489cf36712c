import { abortError } from './abort'

/**
 * How long the upload queue waits before another try, and the waits themselves: a phone unlocking
 * or the network coming back ends them early. What is retried, and how often, is transfer.ts.
 */

/** Exponential back-off with jitter: ~1 s, 2 s, 4 s … capped at 30 s. */
export function backoffDelay(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** attempt)
  return base / 2 + Math.random() * (base / 2)
}

/** Back-off waits in progress; `wakeSleepers` ends them early. */
const sleepers = new Set<() => void>()

/**
 * Ends every back-off wait now: the page became visible again (a phone unlocked) or the
 * network came back, so there is no reason to sit out the rest of a 30 s pause.
 */
export function wakeSleepers(): void {
  for (const wake of [...sleepers]) wake()
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    const done = () => {
      clearTimeout(timer)
      sleepers.delete(done)
      signal.removeEventListener('abort', onAbort)
      resolve()
    }
    const timer = setTimeout(done, ms)
    const onAbort = () => {
      clearTimeout(timer)
      sleepers.delete(done)
      reject(abortError())
    }
    sleepers.add(done)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false
}

/** Resolves when the browser says it is online again (checking now and then, in case no event comes). */
export function waitForOnline(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    if (!isOffline()) return resolve()
    const done = () => {
      window.removeEventListener('online', onOnline)
      signal.removeEventListener('abort', onAbort)
      clearInterval(poll)
    }
    const onOnline = () => {
      done()
      resolve()
    }
    const onAbort = () => {
      done()
      reject(abortError())
    }
    const poll = setInterval(() => {
      if (!isOffline()) onOnline()
    }, 15_000)
    window.addEventListener('online', onOnline)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
