/**
 * Whether guests' phones can open the address a QR code encodes. The code encodes the origin the
 * admin's browser is on (server/utils/qr/target.ts, `defaultQrTarget`): an admin who browses the
 * app on the machine that runs it (`localhost`) or by its address on the venue's network prints a
 * code that leads nowhere, or only to phones on that same Wi-Fi. Decided from the host name alone:
 * a name that is not an address literal is taken as public unless it is one of the names kept for
 * local networks.
 */
export type UnreachableKind = 'loopback' | 'private'

const LOOPBACK_NAMES = /^(?:localhost|.+\.localhost)$/
/** Names that never leave a local network: mDNS, the home and internal suffixes, and bare single-label names. */
const LOCAL_NAMES = /(?:\.local|\.lan|\.home|\.internal|\.home\.arpa)$/

function ipv4(host: string): number[] | null {
  const parts = host.split('.')
  if (parts.length !== 4 || !parts.every(part => /^\d{1,3}$/.test(part))) return null
  const bytes = parts.map(Number)
  return bytes.every(byte => byte <= 255) ? bytes : null
}

function ipv4Kind([a, b]: number[]): UnreachableKind | null {
  if (a === 127 || a === 0) return 'loopback'
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private'
  // Link-local (a phone's own network with no DHCP) and carrier-grade NAT are not reachable either.
  if ((a === 169 && b === 254) || (a === 100 && b! >= 64 && b! <= 127)) return 'private'
  return null
}

function ipv6Kind(host: string): UnreachableKind | null {
  const address = host.toLowerCase()
  if (address === '::1' || address === '::') return 'loopback'
  // An IPv4 address written as IPv6 (the URL parser writes it in hex: `::ffff:7f00:1`).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address)
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16)
    const low = Number.parseInt(mapped[2]!, 16)
    return ipv4Kind([high >> 8, high & 0xFF, low >> 8, low & 0xFF])
  }
  // Unique local (fc00::/7) and link-local (fe80::/10).
  if (/^f[cd][0-9a-f]{0,2}:/.test(address) || /^fe[89ab][0-9a-f]?:/.test(address)) return 'private'
  return null
}

/** `loopback` or `private` when phones elsewhere cannot open `url`; null when it looks public. */
export function unreachableKind(url: string): UnreachableKind | null {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '')
  }
  catch {
    return null
  }
  if (host.startsWith('[')) return ipv6Kind(host.slice(1, -1))
  const v4 = ipv4(host)
  if (v4) return ipv4Kind(v4)
  if (LOOPBACK_NAMES.test(host)) return 'loopback'
  if (!host.includes('.') || LOCAL_NAMES.test(host)) return 'private'
  return null
}
