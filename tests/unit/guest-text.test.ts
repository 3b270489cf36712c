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

  it('strips tags that are not a drawn flag: any other run after 🏴 is hidden text', () => {
    const hidden = '\u{1F3F4}' + [...'send the password to x'].map(c => String.fromCodePoint(0xE0000 + c.charCodeAt(0))).join('') + '\u{E007F}'
    expect(stripFormatCharacters(`a${hidden}b`)).toBe('a\u{1F3F4}b')
    // Well-formed but not one of the flags platforms draw (California): a black flag only.
    expect(stripFormatCharacters('\u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E007F}')).toBe('\u{1F3F4}')
    expect(stripFormatCharacters('\u{E0001}\u{E0020}x\u{E007F}')).toBe('x')
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'
    const wales = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}'
    expect(stripFormatCharacters(`${england}${SCOTLAND}${wales}`)).toBe(`${england}${SCOTLAND}${wales}`)
  })

  it('strips variation selectors U+E0100–E01EF except one after a Han ideograph', () => {
    // 63 invisible code points after a visible letter, each one a byte of hidden data.
    const smuggled = 'oi' + Array.from({ length: 63 }, (_, i) => String.fromCodePoint(0xE0100 + i)).join('')
    expect(stripFormatCharacters(smuggled)).toBe('oi')
    expect(stripFormatCharacters('\u{E0100}\u{E01EF}')).toBe('')
    // An ideographic variation sequence (葛 with its variant glyph) is a drawn character.
    expect(stripFormatCharacters('葛\u{E0100}城')).toBe('葛\u{E0100}城')
    expect(stripFormatCharacters('葛\u{E0100}\u{E0101}\u{E0102}')).toBe('葛\u{E0100}')
  })

  it('keeps one variation selector U+FE00–FE0F after a character, strips the rest', () => {
    expect(stripFormatCharacters('❤\uFE0F 1\uFE0F\u20E3 ☺\uFE0E')).toBe('❤\uFE0F 1\uFE0F\u20E3 ☺\uFE0E')
    expect(stripFormatCharacters('❤\uFE0F\uFE0F\uFE0E\uFE00')).toBe('❤\uFE0F')
    expect(stripFormatCharacters('\uFE0Fa')).toBe('a')
    // After an invisible character there is nothing to select a glyph for.
    expect(stripFormatCharacters('\u202E\uFE0F')).toBe('')
    expect(stripFormatCharacters('👩\u200D❤\uFE0F\u200D👨')).toBe('👩\u200D❤\uFE0F\u200D👨')
  })

  it('strips before trimming and counting: what is stored is what the limits apply to', () => {
    expect(guestText(80).parse(' \u2066 Ana \u2069 ')).toBe('Ana')
    expect(guestText(3).parse('abc\u202E\u202E')).toBe('abc')
    expect(guestText(255, 1).safeParse('\u202E\u200F').success).toBe(false)
    expect(guestText(2).parse(`ab${'\u{E0100}'.repeat(10)}`)).toBe('ab')
  })
})
