import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'
import { JSON_BODY_MAX_BYTES } from '#shared/limits'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function isJsonType(contentType: string | undefined): boolean {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence)
}

/**
 * Reads at most `limit` bytes; one more and the request is refused without reading the rest. The
 * request is only paused, never destroyed (leaving a `for await` over it would destroy it, and
 * with it the socket the 413 still has to go out on), and the answer closes the connection, since
 * the rest of the body would otherwise be read as the next request.
 */
function readLimited(event: H3Event, limit: number): Promise<Buffer> {
  const req = event.node.req
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let total = 0
    const onData = (chunk: Buffer) => {
      total += chunk.length
      if (total <= limit) {
        chunks.push(chunk)
        return
      }
      stop()
      event.node.res.setHeader('connection', 'close')
      reject(apiError(413, ErrorCode.BODY_TOO_LARGE, 'Body too large', { limit }))
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    function stop() {
      req.off('data', onData).off('end', onEnd).off('error', onError)
      req.pause()
    }
    req.on('data', onData).on('end', onEnd).on('error', onError)
  })
}

/**
 * Every JSON endpoint under /api: waits for the database, then enforces the body contract
 * (64 KiB, JSON only, well-formed) before any handler runs, so handlers only ever see a body
 * that `readValidatedBody` can parse.
 */
export default defineEventHandler(async (event) => {
  if (!event.path.startsWith('/api/')) return
  setResponseHeader(event, 'cache-control', 'no-store')
  if (BODY_METHODS.has(event.method)) {
    const declared = Number(getRequestHeader(event, 'content-length') ?? 0)
    if (declared > JSON_BODY_MAX_BYTES) {
      throw apiError(413, ErrorCode.BODY_TOO_LARGE, 'Body too large', { limit: JSON_BODY_MAX_BYTES })
    }
    const hasBody = declared > 0 || getRequestHeader(event, 'transfer-encoding') !== undefined
    if (hasBody && !isJsonType(getRequestHeader(event, 'content-type'))) {
      throw apiError(415, ErrorCode.JSON_REQUIRED, 'JSON required')
    }
    const raw = hasBody ? await readLimited(event, JSON_BODY_MAX_BYTES) : Buffer.alloc(0)
    const text = raw.toString('utf8')
    if (text.trim() !== '') {
      let pollutes = false
      try {
        // `__proto__` would be dropped silently further on; a body that tries it is refused.
        JSON.parse(text, (key, value) => {
          if (key === '__proto__') pollutes = true
          return value
        })
      }
      catch {
        throw apiError(400, ErrorCode.INVALID_REQUEST, 'Malformed JSON')
      }
      if (pollutes) throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', { issues: [{ path: ['__proto__'], message: 'forbidden key' }] })
    }
    // h3 reads the body from here; an empty body counts as `{}` (confirm, abort, approve…).
    event._requestBody = text.trim() === '' ? '{}' : text
    // readBody picks its parser by content type; the body is known to be JSON by now.
    event.node.req.headers['content-type'] = 'application/json'
  }
  // Health answers for itself, even while the database cannot be opened.
  if (event.path === '/api/health') return
  await dbReadyForRequest()
  sweepOnTraffic(event)
})
