import type { ErrorCode } from '#shared/errors'

/**
 * A request that did not succeed, reduced to what the pages act on. One shape for every caller:
 * the admin's $fetch calls, the upload page's JSON calls and its PUTs to storage. The words for a
 * failure are the messages' business (`describe` in each messages file), not this class's.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status; null when no answer came (connection lost, timed out, stalled). */
    readonly status: number | null,
    /** The contract's `data.code` (S3's `<Code>` for a refused PUT, or a client-side code); null when none. */
    readonly code: ErrorCode | string | null,
    readonly data: Record<string, unknown> = {},
    /** Seconds to wait, from `retry-after` (or the body's `data.retryAfter`), on a 429 or a 503. */
    readonly retryAfter: number | null = null,
  ) {
    super(status === null ? 'no answer' : `HTTP ${status}${code ? ` ${code}` : ''}`)
    this.name = 'ApiError'
  }

  get unauthenticated(): boolean {
    return this.status === 401
  }

  /** Worth another try later: no answer came, or the server or something on the way had a bad moment. */
  get transient(): boolean {
    return this.status === null || this.status >= 500 || this.status === 408 || this.status === 429
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * An answer that was not a success, parsed once. `body` is what came back: JSON already parsed,
 * or the raw text (JSON, a proxy's error page, or S3's XML).
 */
export function apiErrorOf(status: number, body: unknown, retryAfterHeader?: string | null): ApiError {
  let parsed = body
  if (typeof body === 'string') {
    try {
      parsed = body ? JSON.parse(body) : null
    }
    catch {
      parsed = null
    }
  }
  const data = isRecord(parsed) && isRecord(parsed.data) ? parsed.data : {}
  const code = typeof data.code === 'string'
    ? data.code
    // S3 answers XML: <Code>AccessDenied</Code>, <Code>ExpiredToken</Code>…
    : typeof body === 'string' ? /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? null : null
  const header = Number(retryAfterHeader)
  const retryAfter = Number.isFinite(header) && header > 0
    ? header
    : typeof data.retryAfter === 'number' ? data.retryAfter : null
  return new ApiError(status, code, data, retryAfter)
}

interface FetchFailure {
  statusCode?: number
  data?: unknown
  response?: { status: number, headers: Headers, _data?: unknown }
}

/** Anything a call threw ($fetch's error, an ApiError already, a lost connection) as an ApiError. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const failure = (error ?? {}) as FetchFailure
  const status = failure.response?.status ?? failure.statusCode ?? null
  if (status === null) return new ApiError(null, null)
  return apiErrorOf(status, failure.data ?? failure.response?._data, failure.response?.headers.get('retry-after'))
}
