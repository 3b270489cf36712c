import type { NitroErrorHandler } from 'nitropack'
import { ErrorCode } from '#shared/errors'
import { isDatabaseBusy } from './utils/db'

/**
 * Runs before Nuxt's own error handler. A database locked past the busy timeout is a dependency
 * being down, not a bug: the contract's 503, not a 500. (Storage failures are already 503s:
 * StorageUnavailableError is an h3 error.)
 */
const errorHandler: NitroErrorHandler = (error, event, { defaultHandler }) => {
  if (!event.path.startsWith('/api/') || !isDatabaseBusy(error)) return
  console.error('[db] busy past the timeout:', event.method, event.path)
  const response = defaultHandler(
    createError({ status: 503, statusMessage: 'Database unavailable', data: { code: ErrorCode.DATABASE_UNAVAILABLE } }),
    event,
    { silent: true },
  ) as { status: number, statusText?: string, headers: Record<string, string>, body: unknown }
  setResponseHeaders(event, response.headers)
  setResponseHeader(event, 'retry-after', 2)
  setResponseStatus(event, response.status, response.statusText)
  return send(event, JSON.stringify(response.body))
}

export default errorHandler
