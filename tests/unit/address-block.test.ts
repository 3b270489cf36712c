import { describe, expect, it } from 'vitest'
import { addressBlockOf } from '../../server/utils/http/client-key'

describe('the address block a PIN guess is counted by', () => {
  it('an IPv6 address is its /64, however it is written', () => {
    const sameBlock = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::abcd',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::',
      '2001:db8:1:2::192.0.2.1',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::9'),
    ]
    for (const address of sameBlock) expect(addressBlockOf(address), address).toBe('2001:db8:1:2::/64')
    expect(addressBlockOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(addressBlockOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressBlockOf('::1')).toBe('0:0:0:0::/64')
    expect(addressBlockOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })

  it('an IPv4 address is itself, also as a dual-stack socket writes it', () => {
    expect(addressBlockOf('127.0.0.7')).toBe('127.0.0.7')
    expect(addressBlockOf('::ffff:127.0.0.7')).toBe('127.0.0.7')
    expect(addressBlockOf('::ffff:7f00:7')).toBe('127.0.0.7')
    expect(addressBlockOf('203.0.113.9')).toBe('203.0.113.9')
  })

  it('what is no address stays its own key', () => {
    for (const value of ['unknown', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9', '2001:db8:1:2::12345', '::ffff:300.1.1.1', '']) {
      expect(addressBlockOf(value), value).toBe(value)
    }
  })
})
