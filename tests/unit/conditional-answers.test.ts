import { describe, expect, it } from 'vitest'
import { pickEncoding } from '../../server/utils/http/compression'
import { matchesIfNoneMatch } from '../../server/utils/http/conditional'

describe('If-None-Match', () => {
  const tag = 'W/"gallery1-7.3-abc-def"'

  it('matches the tag itself, without W/, in a list, or *', () => {
    expect(matchesIfNoneMatch(tag, tag)).toBe(true)
    expect(matchesIfNoneMatch('"gallery1-7.3-abc-def"', tag)).toBe(true)
    expect(matchesIfNoneMatch(`"x", W/"y",${tag}`, tag)).toBe(true)
    expect(matchesIfNoneMatch('*', tag)).toBe(true)
  })

  it('does not match another tag, a prefix of it, or nothing', () => {
    expect(matchesIfNoneMatch('W/"gallery1-7.4-abc-def"', tag)).toBe(false)
    expect(matchesIfNoneMatch('W/"gallery1-7.3-abc-de"', tag)).toBe(false)
    expect(matchesIfNoneMatch('', tag)).toBe(false)
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false)
  })
})

describe('Accept-Encoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=1.0, gzip;q=1.0', 'br'],
    ['BR', 'br'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['gzip;q=nonsense, br;q=0.1', 'br'],
  ] as const)('%s → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected)
  })
})
