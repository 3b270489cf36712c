import type { H3Event } from 'h3'

/**
 * Who is asking, for rate limits. The socket address, unless TRUST_PROXY names the header that a
 * trusted reverse proxy sets (and the request comes from a TRUST_PROXY_FROM address, when set):
 * then the last address in it, the one the proxy itself saw, so a guest cannot reset a limit by
 * sending their own X-Forwarded-For.
 */
export function clientKey(event: H3Event): string {
  const header = useConfig().TRUST_PROXY
  if (header && fromTrustedProxy(event)) {
    const value = getRequestHeader(event, header)
    const last = value?.split(',').map(part => part.trim()).filter(Boolean).at(-1)
    if (last) return last
  }
  return event.node.req.socket?.remoteAddress ?? 'unknown'
}
