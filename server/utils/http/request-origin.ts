import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'

/**
 * Whether the client reached us over https: directly, or through a trusted proxy that says so in
 * X-Forwarded-Proto (trusted only as requestOrigin says).
 */
export function isHttpsRequest(event: H3Event): boolean {
  return getRequestProtocol(event, { xForwardedProto: fromTrustedProxy(event) }) === 'https'
}

/**
 * The origin the client used to reach us (`http://host:port`). X-Forwarded-Proto/-Host are
 * honoured only when TRUST_PROXY says a reverse proxy sets them, and only from the proxy's own
 * addresses when TRUST_PROXY_FROM names them (fromTrustedProxy); otherwise any client could make
 * us believe we live elsewhere.
 */
export function requestOrigin(event: H3Event): string {
  const trustProxy = fromTrustedProxy(event)
  try {
    return getRequestURL(event, { xForwardedHost: trustProxy, xForwardedProto: trustProxy }).origin
  }
  catch {
    // A Host header that is not a host at all (`a b`) cannot make a URL.
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid Host header')
  }
}
