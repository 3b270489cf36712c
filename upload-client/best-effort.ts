/**
 * The scaffold of the queue's best-effort extras (a video's poster, a photo's public images): they
 * go just before the confirm, and every failure ends in "without them", never in a failed or
 * delayed upload beyond their time limit.
 */

/** Resolves null when `signal` aborts, so a stuck capture cannot hold anything up. */
export function orAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(null)
    const onAbort = () => resolve(null)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, () => resolve(null)).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * Waits for `made` and hands it to `send`, under one signal that aborts after `timeoutMs` or with
 * `signal` (the guest removing the file). Answers whether it was sent; never throws.
 */
export async function sendBestEffort<T>(made: Promise<T | null>, signal: AbortSignal, timeoutMs: number, send: (made: T, signal: AbortSignal) => Promise<void>): Promise<boolean> {
  const controller = new AbortController()
  const stop = () => controller.abort()
  const timer = setTimeout(stop, timeoutMs)
  if (signal.aborted) stop()
  else signal.addEventListener('abort', stop, { once: true })
  try {
    const value = await orAbort(made, controller.signal)
    if (value === null || controller.signal.aborted) return false
    await send(value, controller.signal)
    return true
  }
  catch {
    return false
  }
  finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', stop)
  }
}
