import type { NitroErrorHandler } from 'nitropack'
import type { H3Error, H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'
import { isDatabaseBusy } from './utils/db'
import { wantsErrorPage } from './utils/http/error-page'

/**
 * The client went away before its request was complete (a guest reloading the page mid-upload):
 * Node fails the read with ECONNRESET "aborted". Normal on phones, and nobody waits for an answer.
 */
function isClientAbort(error: H3Error, event: H3Event): boolean {
  const cause = (error.cause ?? error) as { code?: unknown }
  return cause.code === 'ECONNRESET' && !event.node.req.complete
}

type DefaultErrorHandler = Parameters<NitroErrorHandler>[2]['defaultHandler']

/** The contract's JSON error (Nitro's error JSON: `statusCode`, `statusMessage`, `data.code`). */
function sendJsonError(event: H3Event, error: H3Error, defaultHandler: DefaultErrorHandler, silent: boolean) {
  const response = defaultHandler(error, event, { silent }) as { status: number, statusText?: string, headers: Record<string, string>, body: unknown }
  setResponseHeaders(event, response.headers)
  setResponseStatus(event, response.status, response.statusText)
  return send(event, JSON.stringify(response.body))
}

/**
 * Runs before Nuxt's own error handler. A database locked past the busy timeout is a dependency
 * being down, not a bug: the contract's 503, not a 500. (Storage failures are already 503s:
 * StorageUnavailableError is an h3 error.) An aborted request is no error at all: one info line,
 * not Nitro's `[unhandled]` one. A media URL's error is JSON unless a person opened it as a page
 * (wantsErrorPage): Nuxt would otherwise render the app's error page for any client that does not
 * name JSON alone, an image element's request among them.
 */
const errorHandler: NitroErrorHandler = (error, event, { defaultHandler }) => {
  if (isClientAbort(error, event)) {
    // The path without its query: a signed URL's signature is a credential.
    console.info('[request aborted by the client]', event.method, event.path.split('?')[0])
    event.node.res.end()
    return
  }
  if (event.path.startsWith('/media/')) {
    if (wantsErrorPage(getRequestHeader(event, 'accept'), getRequestHeader(event, 'sec-fetch-dest'))) return
    return sendJsonError(event, error, defaultHandler, false)
  }
  if (!event.path.startsWith('/api/') || !isDatabaseBusy(error)) return
  console.error('[db] busy past the timeout:', event.method, event.path)
  setResponseHeader(event, 'retry-after', 2)
  return sendJsonError(event, createError({ status: 503, statusMessage: 'Database unavailable', data: { code: ErrorCode.DATABASE_UNAVAILABLE } }), defaultHandler, true)
}

export default errorHandler
