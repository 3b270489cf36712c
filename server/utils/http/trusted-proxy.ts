import { BlockList, isIP } from 'node:net'
import type { H3Event } from 'h3'

/**
 * The addresses TRUST_PROXY_FROM names (IPs and CIDR ranges, v4 or v6), or null when an entry is
 * not one. A pure parser, so the configuration check at start can refuse a typo.
 */
export function parseProxyAddresses(value: string): BlockList | null {
  const list = new BlockList()
  for (const entry of value.split(',').map(part => part.trim()).filter(Boolean)) {
    const [address, prefix, ...rest] = entry.split('/')
    const type = isIP(address ?? '')
    if (!type || rest.length) return null
    if (prefix === undefined) {
      list.addAddress(address!, type === 4 ? 'ipv4' : 'ipv6')
      continue
    }
    const bits = Number(prefix)
    if (!/^\d{1,3}$/.test(prefix) || bits > (type === 4 ? 32 : 128)) return null
    list.addSubnet(address!, bits, type === 4 ? 'ipv4' : 'ipv6')
  }
  return list
}

/** Is `address` (a socket's, where IPv4 may come as `::ffff:a.b.c.d`) in `list`? */
export function isListedAddress(list: BlockList, address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return list.check(mapped[1]!, 'ipv4')
  const type = isIP(address)
  return type !== 0 && list.check(address, type === 4 ? 'ipv4' : 'ipv6')
}

let proxies: { from: string, list: BlockList | null } | undefined

/**
 * Whether this request's forwarded headers (TRUST_PROXY's client address, X-Forwarded-Proto and
 * -Host) may be believed: TRUST_PROXY is set, and the request comes from one of the
 * TRUST_PROXY_FROM addresses when that is set. Without TRUST_PROXY_FROM any client that reaches
 * the port directly is believed, so the port must be reachable only through the proxy.
 */
export function fromTrustedProxy(event: H3Event): boolean {
  const { TRUST_PROXY, TRUST_PROXY_FROM } = useConfig()
  if (!TRUST_PROXY) return false
  if (!TRUST_PROXY_FROM) return true
  if (proxies?.from !== TRUST_PROXY_FROM) proxies = { from: TRUST_PROXY_FROM, list: parseProxyAddresses(TRUST_PROXY_FROM) }
  const address = event.node.req.socket?.remoteAddress
  return Boolean(proxies.list && address && isListedAddress(proxies.list, address))
}
