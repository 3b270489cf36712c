import { ApiError, apiErrorOf } from '~/app-utils/api-error'
import type { GuestUploadPatchResponse } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'
import { abortError } from './abort'

/**
 * The network half of the upload queue: JSON calls to the upload API and byte uploads with real
 * progress. Every failure is an ApiError (status null: no answer came). No queue state, no
 * retries here: those are in transfer.ts.
 */

const JSON_TIMEOUT_MS = 30_000

/** POST a JSON body to the upload API; throws an ApiError (with the contract code, or status null). */
export function postJson<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(path, { body, signal })
}

interface JsonRequest {
  method?: 'POST' | 'DELETE' | 'PATCH'
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** A JSON call to the upload API (POST unless told); throws an ApiError (with the contract code, or status null). */
export async function requestJson<T>(path: string, { method = 'POST', body = {}, headers = {}, signal }: JsonRequest = {}): Promise<T> {
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
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
      credentials: 'same-origin',
    })
    text = await response.text()
  }
  catch {
    if (signal?.aborted) throw abortError()
    throw new ApiError(null, null)
  }
  finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', forward)
  }
  if (!response.ok) throw apiErrorOf(response.status, text, response.headers.get('retry-after'))
  try {
    return (text ? JSON.parse(text) : null) as T
  }
  catch {
    // Not JSON: a proxy's page.
    return null as T
  }
}

/** A guest's undo of an upload this device sent; throws the server's refusal (404, 403, 409 UNDO_EXPIRED). */
export async function deleteSentUpload(uploadId: string, undoToken: string): Promise<void> {
  await requestJson(`/api/uploads/${encodeURIComponent(uploadId)}`, { method: 'DELETE', headers: { [UNDO_TOKEN_HEADER]: undoToken } })
}

/** No progress for this long means the connection died without saying so (common on phones). */
const STALL_TIMEOUT_MS = 60_000

/** PUTs bytes to a signed URL; `onProgress` gets the bytes of this request sent so far. Every failure is an ApiError. */
export type PutBlob = (
  url: string,
  body: Blob,
  headers: Record<string, string> | undefined,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
) => Promise<void>

/**
 * PUTs a blob with XMLHttpRequest, the one browser API that reports upload progress in bytes.
 * `onProgress` gets the bytes of this request sent so far.
 */
export const putBlob: PutBlob = (url, body, headers, onProgress, signal) => {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    const xhr = new XMLHttpRequest()
    let stallTimer: ReturnType<typeof setTimeout> | undefined
    const armStallTimer = () => {
      clearTimeout(stallTimer)
      stallTimer = setTimeout(() => {
        xhr.abort()
        cleanup()
        reject(new ApiError(null, null))
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
      reject(apiErrorOf(xhr.status, xhr.responseText))
    }
    xhr.onerror = () => {
      cleanup()
      reject(new ApiError(null, null))
    }
    armStallTimer()
    xhr.send(body)
  })
}

/**
 * The same PUT with fetch, for the service worker (which has no XMLHttpRequest): no progress
 * until the body has gone whole, and no stall timer (the sync event's own deadline ends a dead
 * connection; parts already acknowledged are kept).
 */
export const putBlobByFetch: PutBlob = async (url, body, headers, onProgress, signal) => {
  if (signal.aborted) throw abortError()
  let response: Response
  let text: string
  try {
    response = await fetch(url, { method: 'PUT', body, headers, signal })
    text = await response.text()
  }
  catch {
    if (signal.aborted) throw abortError()
    throw new ApiError(null, null)
  }
  if (!response.ok) throw apiErrorOf(response.status, text)
  onProgress(body.size)
}

/**
 * The sending device corrects the name and message of an upload it sent (`PATCH /api/uploads/:id`,
 * with its undo token): words typed after the bytes began to move still reach the upload. The
 * revision orders the edits (0: words never edited here, sent without one).
 */
export function patchSentUpload(uploadId: string, token: string, { author, message, revision }: { author: string, message: string, revision: number }, signal?: AbortSignal): Promise<GuestUploadPatchResponse> {
  const body = { author, message, ...(revision > 0 ? { revision } : {}) }
  return requestJson(`/api/uploads/${uploadId}`, { method: 'PATCH', body, headers: { [UNDO_TOKEN_HEADER]: token }, signal })
}
