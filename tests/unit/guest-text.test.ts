import { describe, expect, it } from 'vitest'
import { guestText, stripFormatCharacters } from '../../shared/schemas/common'

const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'

describe('guest text and format characters', () => {
  it('strips bidi embeddings, overrides, isolates and marks', () => {
    expect(stripFormatCharacters('photo\u202Egpj.exe')).toBe('photogpj.exe')
    expect(stripFormatCharacters('\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h')).toBe('abcdefgh')
    expect(stripFormatCharacters('a\u200Eb\u200Fc\u061Cd')).toBe('abcd')
  })

  it('strips the other invisible ones: zero-width space, word joiner, BOM, soft hyphen, stray tags', () => {
    expect(stripFormatCharacters('a\u200Bb\u2060c\uFEFFd\u00ADe\u{E0041}f')).toBe('abcdef')
  })

  it('keeps the joiners and an emoji flag whole', () => {
    expect(stripFormatCharacters('می\u200Cخواهم 👩\u200D👩')).toBe('می\u200Cخواهم 👩\u200D👩')
    expect(stripFormatCharacters(`go ${SCOTLAND}!`)).toBe(`go ${SCOTLAND}!`)
    // A black flag with no tags after it is only an emoji; tags without the flag are stripped.
    expect(stripFormatCharacters('\u{1F3F4}\u{E0067}x')).toBe('\u{1F3F4}x')
  })

  it('strips before trimming and counting: what is stored is what the limits apply to', () => {
    expect(guestText(80).parse(' \u2066 Ana \u2069 ')).toBe('Ana')
    expect(guestText(3).parse('abc\u202E\u202E')).toBe('abc')
    expect(guestText(255, 1).safeParse('\u202E\u200F').success).toBe(false)
  })
})
