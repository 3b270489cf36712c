import { describe, expect, it } from 'vitest'
import { isListedAddress, parseProxyAddresses } from '../../server/utils/http/trusted-proxy'

describe('TRUST_PROXY_FROM addresses', () => {
  it('matches single addresses and CIDR ranges, IPv4 (also as a socket writes it, ::ffff:a.b.c.d) and IPv6', () => {
    const list = parseProxyAddresses(' 10.0.0.1, 192.168.0.0/16 ,2001:db8::/32,::1')!
    expect(isListedAddress(list, '10.0.0.1')).toBe(true)
    expect(isListedAddress(list, '::ffff:10.0.0.1')).toBe(true)
    expect(isListedAddress(list, '10.0.0.2')).toBe(false)
    expect(isListedAddress(list, '192.168.77.3')).toBe(true)
    expect(isListedAddress(list, '192.169.0.1')).toBe(false)
    expect(isListedAddress(list, '2001:db8:1::5')).toBe(true)
    expect(isListedAddress(list, '2001:db9::5')).toBe(false)
    expect(isListedAddress(list, '::1')).toBe(true)
    expect(isListedAddress(list, 'not-an-address')).toBe(false)
  })

  it('refuses anything that is not an address or a range', () => {
    for (const value of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129', '10.0.0.0/x', '10.0.0.256']) {
      expect(parseProxyAddresses(value), value).toBeNull()
    }
  })
})
