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

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 as two), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    if ([a, b, c, d].some(part => part > 255)) return null
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const parse = (half: string) => (half ? half.split(':') : []).map(group => /^[\da-f]{1,4}$/i.test(group) ? Number.parseInt(group, 16) : Number.NaN)
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail]
  return groups.some(Number.isNaN) ? null : groups
}

/**
 * The block an address stands for when limiting guesses: an IPv4 address itself (an IPv4-mapped
 * IPv6 one, `::ffff:a.b.c.d`, as that IPv4), an IPv6 address as its /64 (`2001:db8:0:1::/64`).
 * One IPv6 subscriber is given a whole /64 (RFC 6177), so counting single IPv6 addresses would
 * give one person 2^64 budgets. Anything else (a proxy's odd header) is its own key.
 */
export function addressBlockOf(address: string): string {
  const groups = ipv6Groups(address.replace(/%.*$/, ''))
  if (!groups) return address
  const [a, b, c, d, e, f, g, h] = groups as [number, number, number, number, number, number, number, number]
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xFFFF) return `${g >> 8}.${g & 0xFF}.${h >> 8}.${h & 0xFF}`
  return `${[a, b, c, d].map(group => group.toString(16)).join(':')}::/64`
}

/** The request's client as the block it belongs to (an IPv6 client's /64). */
export function clientBlockKey(event: H3Event): string {
  return addressBlockOf(clientKey(event))
}
