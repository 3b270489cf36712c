import type { ErrorCode } from '~~/shared/errors'

/**
 * The network half of the upload queue: JSON calls to the upload API, byte uploads with real
 * progress, back-off and waiting for the connection. No queue state lives here.
 */

/** An answer from the server that was not a success, with the contract's `data.code`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string | undefined,
    readonly data: Record<string, unknown> = {},
    readonly retryAfterSec: number | null = null,
  ) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}`)
    this.name = 'HttpError'
  }

  /** Worth another try later: the server or something on the way had a bad moment. */
  get transient(): boolean {
    return this.status >= 500 || this.status === 408 || this.status === 429 || this.status === 0
  }
}

/** The request never got an answer: connection lost, timed out or stalled. */
export class NetworkError extends Error {
  constructor(message = 'network error') {
    super(message)
    this.name = 'NetworkError'
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

function abortError(): DOMException {
  return new DOMException('Aborted', 'AbortError')
}

const JSON_TIMEOUT_MS = 30_000

/** POST a JSON body to the upload API; throws HttpError (with the contract code) or NetworkError. */
export async function postJson<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  // One controller for both the caller's cancel and the timeout (AbortSignal.any is too new for
  // the iPhones guests still carry).
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), JSON_TIMEOUT_MS)
  const forward = () => controller.abort()
  signal?.addEventListener('abort', forward, { once: true })
  let response: Response
  let text: string
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
      credentials: 'same-origin',
    })
    text = await response.text()
  }
  catch (error) {
    if (signal?.aborted) throw abortError()
    throw new NetworkError(error instanceof Error ? error.message : String(error))
  }
  finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', forward)
  }
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  }
  catch { /* not JSON: a proxy's error page */ }
  if (!response.ok) {
    const data = (parsed as { data?: Record<string, unknown> } | null)?.data ?? {}
    const retryAfter = Number(response.headers.get('retry-after'))
    throw new HttpError(response.status, typeof data.code === 'string' ? data.code : undefined, data, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null)
  }
  return parsed as T
}

/** No progress for this long means the connection died without saying so (common on phones). */
const STALL_TIMEOUT_MS = 60_000

/**
 * PUTs a blob with XMLHttpRequest, the one browser API that reports upload progress in bytes.
 * `onProgress` gets the bytes of this request sent so far.
 */
export function putBlob(
  url: string,
  body: Blob,
  headers: Record<string, string> | undefined,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    const xhr = new XMLHttpRequest()
    let stallTimer: ReturnType<typeof setTimeout> | undefined
    const armStallTimer = () => {
      clearTimeout(stallTimer)
      stallTimer = setTimeout(() => {
        xhr.abort()
        cleanup()
        reject(new NetworkError('stalled'))
      }, STALL_TIMEOUT_MS)
    }
    const onAbort = () => {
      xhr.abort()
      cleanup()
      reject(abortError())
    }
    const cleanup = () => {
      clearTimeout(stallTimer)
      signal.removeEventListener('abort', onAbort)
      xhr.upload.onprogress = null
      xhr.onload = null
      xhr.onerror = null
    }
    signal.addEventListener('abort', onAbort, { once: true })
    xhr.open('PUT', url)
    for (const [name, value] of Object.entries(headers ?? {})) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => {
      armStallTimer()
      onProgress(event.loaded)
    }
    xhr.onload = () => {
      cleanup()
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size)
        resolve()
        return
      }
      let code: string | undefined
      try {
        code = JSON.parse(xhr.responseText)?.data?.code
      }
      catch {
        // S3 answers XML: <Code>AccessDenied</Code>, <Code>ExpiredToken</Code>…
        code = /<Code>([^<]+)<\/Code>/.exec(xhr.responseText)?.[1]
      }
      reject(new HttpError(xhr.status, code))
    }
    xhr.onerror = () => {
      cleanup()
      reject(new NetworkError())
    }
    armStallTimer()
    xhr.send(body)
  })
}

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
