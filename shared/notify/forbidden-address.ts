/*
 * Where the server never posts a notification: link-local addresses, among them every cloud's
 * metadata service (169.254.169.254, fd00:ec2::254 aside, is reached through them), which would
 * hand an admin-chosen URL the machine's credentials. Loopback stays allowed: a venue's own ntfy
 * and the tests live there. Pure, so that the admin's PATCH refuses a literal address and the
 * sender checks every address a name resolves to at send time (DNS rebinding) with one rule.
 */

/** An IPv4 address in dotted form, as four numbers, or null. */
function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.')
  if (parts.length !== 4 || !parts.every(part => /^\d{1,3}$/.test(part))) return null
  const numbers = parts.map(Number)
  return numbers.every(n => n <= 255) ? numbers : null
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4 expanded), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '')
  const dotted = text.match(/:(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const v4 = ipv4Parts(dotted[1]!)
    if (!v4) return null
    text = `${text.slice(0, -dotted[1]!.length)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groupsOf = (half: string) => (half ? half.split(':') : [])
  const head = groupsOf(halves[0]!)
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (!groups.every(group => /^[\da-f]{1,4}$/i.test(group))) return null
  return groups.map(group => Number.parseInt(group, 16))
}

/** Whether `address` (an IP literal, IPv6 with or without brackets) is link-local: 169.254.0.0/16 or fe80::/10. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const v4 = ipv4Parts(bare)
  if (v4) return v4[0] === 169 && v4[1] === 254
  const v6 = ipv6Groups(bare)
  if (!v6) return false
  if ((v6[0]! & 0xFFC0) === 0xFE80) return true
  // An IPv4-mapped address (::ffff:169.254.x.x) reaches the IPv4 one.
  const mapped = v6.slice(0, 5).every(group => group === 0) && v6[5] === 0xFFFF
  return mapped && v6[6]! >> 8 === 169 && (v6[6]! & 0xFF) === 254
}
