import type { NitroErrorHandler } from 'nitropack'
import { ErrorCode } from '../shared/errors'
import { isDatabaseBusy } from './utils/db'
import { StorageUnavailableError } from './utils/media-store'

function dependencyDown(error: unknown): { code: ErrorCode, message: string } | null {
  if (isDatabaseBusy(error)) return { code: ErrorCode.DATABASE_UNAVAILABLE, message: 'Database unavailable' }
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof StorageUnavailableError) return { code: ErrorCode.STORAGE_UNAVAILABLE, message: 'Storage unavailable' }
    current = (current as { cause?: unknown }).cause
  }
  return null
}

/**
 * Runs before Nuxt's own error handler. A database locked past the busy timeout or a storage
 * that cannot be reached is a dependency being down, not a bug: the contract's 503, not a 500.
 */
const errorHandler: NitroErrorHandler = (error, event, { defaultHandler }) => {
  const down = event.path.startsWith('/api/') ? dependencyDown(error) : null
  if (!down) return
  console.error(`[${down.code}]`, event.method, event.path, error.cause instanceof Error ? error.cause.message : error.message)
  const response = defaultHandler(
    createError({ status: 503, statusMessage: down.message, data: { code: down.code } }),
    event,
    { silent: true },
  ) as { status: number, statusText?: string, headers: Record<string, string>, body: unknown }
  setResponseHeaders(event, response.headers)
  setResponseHeader(event, 'retry-after', 2)
  setResponseStatus(event, response.status, response.statusText)
  return send(event, JSON.stringify(response.body))
}

export default errorHandler
