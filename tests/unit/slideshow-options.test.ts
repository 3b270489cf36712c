import { describe, expect, it } from 'vitest'
import { isSlideshowAddress, isSlideshowQuery, SLIDESHOW_DEFAULTS, slideshowOptionsOf, slideshowPathOf } from '#shared/slideshow'

describe('slideshow address options', () => {
  it('the plain address carries no options: every default applies', () => {
    expect(slideshowPathOf()).toBe('/galeria?slideshow=1')
    expect(slideshowPathOf({ ...SLIDESHOW_DEFAULTS })).toBe('/galeria?slideshow=1')
    expect(slideshowOptionsOf({ slideshow: '1' })).toEqual({})
  })

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const path = slideshowPathOf({ photoSeconds: 10, inviteEvery: 20 })
    expect(path).toBe('/galeria?slideshow=1&segundos=10&convite=20')
    const query = Object.fromEntries(new URL(path, 'http://x').searchParams)
    expect(isSlideshowQuery(query)).toBe(true)
    expect(slideshowOptionsOf(query)).toEqual({ photoSeconds: 10, inviteEvery: 20 })
    expect(slideshowPathOf({ photoSeconds: 6, inviteEvery: 0 })).toBe('/galeria?slideshow=1&convite=0')
  })

  it('clamps to the bounds; a card count is whole, seconds may be fractional', () => {
    expect(slideshowOptionsOf({ segundos: '1', convite: '-3' })).toEqual({ photoSeconds: 2, inviteEvery: 0 })
    expect(slideshowOptionsOf({ segundos: '600', convite: '9999' })).toEqual({ photoSeconds: 60, inviteEvery: 200 })
    expect(slideshowOptionsOf({ segundos: '2.5', convite: '3.4' })).toEqual({ photoSeconds: 2.5, inviteEvery: 3 })
    expect(slideshowOptionsOf({ desafios: '2.6', recados: '-1' })).toEqual({ challengeEvery: 3, messageEvery: 0 })
    expect(slideshowOptionsOf({ desafios: '9999' })).toEqual({ challengeEvery: 200 })
    expect(slideshowOptionsOf({ desafios: '0' })).toEqual({ challengeEvery: 0 })
  })

  it('ignores what is not a number, zero seconds, and repeated parameters', () => {
    expect(slideshowOptionsOf({ segundos: 'abc', convite: '' })).toEqual({})
    expect(slideshowOptionsOf({ segundos: '0' })).toEqual({})
    expect(slideshowOptionsOf({ segundos: ['5', '7'], convite: ['1'] })).toEqual({})
    expect(isSlideshowQuery({ slideshow: 'true' })).toBe(false)
    expect(isSlideshowQuery({ slideshow: ['1'] })).toBe(false)
  })

  it('one test says whether an address opens the venue screen (the page, its page policy and the worker ask it)', () => {
    expect(isSlideshowAddress(new URL(`http://venue${slideshowPathOf({ photoSeconds: 10 })}`))).toBe(true)
    expect(isSlideshowAddress(new URL('http://venue/galeria?convite=3&slideshow=1'))).toBe(true)
    expect(isSlideshowAddress(new URL('http://venue/galeria'))).toBe(false)
    expect(isSlideshowAddress(new URL('http://venue/galeria?slideshow=true'))).toBe(false)
    expect(isSlideshowAddress(new URL('http://venue/enviar?slideshow=1'))).toBe(false)
  })

  it('carries the venue screen key as `chave`, and reads back only a key-shaped one', () => {
    const path = slideshowPathOf({ screenKey: 'AbC_12-xyz' })
    expect(path).toBe('/galeria?slideshow=1&chave=AbC_12-xyz')
    expect(slideshowOptionsOf(Object.fromEntries(new URL(path, 'http://x').searchParams))).toEqual({ screenKey: 'AbC_12-xyz' })
    expect(slideshowOptionsOf({ slideshow: '1', chave: 'a b' })).toEqual({})
    expect(slideshowOptionsOf({ slideshow: '1', chave: ['a', 'b'] })).toEqual({})
  })

  it('plays one moment with `momento`, written and read back; a malformed id is not one', () => {
    const path = slideshowPathOf({ moment: 'Ab3_-xYz' })
    expect(path).toBe('/galeria?slideshow=1&momento=Ab3_-xYz')
    expect(slideshowOptionsOf(Object.fromEntries(new URL(path, 'http://x').searchParams))).toEqual({ moment: 'Ab3_-xYz' })
    expect(slideshowOptionsOf({ momento: '../x' })).toEqual({})
    expect(slideshowOptionsOf({ momento: ['a', 'b'] })).toEqual({})
  })
})
