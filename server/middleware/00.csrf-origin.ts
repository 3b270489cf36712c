import { ErrorCode } from '#shared/errors'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Cross-site request forgery guard for the admin API: a state-changing call that a browser sent
 * from another site is refused, whatever cookie it carries. Same-origin pages, and clients that
 * send no Origin (curl, server-to-server), pass.
 */
export default defineEventHandler((event) => {
  if (!event.path.startsWith('/api/admin/') || !STATE_CHANGING.has(event.method)) return
  if (getRequestHeader(event, 'sec-fetch-site') === 'cross-site') {
    throw apiError(403, ErrorCode.FORBIDDEN_ORIGIN, 'Forbidden origin')
  }
  const origin = getRequestHeader(event, 'origin')
  if (!origin) return
  const allowed = new Set([requestOrigin(event), new URL(useConfig().PUBLIC_BASE_URL).origin])
  if (!allowed.has(origin)) {
    throw apiError(403, ErrorCode.FORBIDDEN_ORIGIN, 'Forbidden origin')
  }
})
