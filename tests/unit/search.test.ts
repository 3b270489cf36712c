import { describe, expect, it } from 'vitest'
import { containsPattern, foldForSearch, searchTextOf, SEARCH_FIELD_SEPARATOR, trigramPhrase } from '../../shared/search'

/** What SQLite's LIKE … ESCAPE '\' does with an already folded text, for the patterns we make. */
function like(text: string, pattern: string): boolean {
  let regex = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch === '\\') regex += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    else if (ch === '%') regex += '[\\s\\S]*'
    else if (ch === '_') regex += '[\\s\\S]'
    else regex += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${regex}$`).test(text)
}

describe('search folding', () => {
  it('folds case and accents alike on both sides', () => {
    expect(foldForSearch('JOÃO Conceição')).toBe('joao conceicao')
    expect(foldForSearch('joão')).toBe(foldForSearch('JOÃO'))
    expect(foldForSearch('Ñandú Ümlaut ÉCOLE')).toBe('nandu umlaut ecole')
    // Decomposed input (as macOS keyboards may send) folds to the same text.
    expect(foldForSearch('Jo\u0061\u0303o')).toBe('joao')
    expect(foldForSearch('İstanbul')).toBe('istanbul')
  })

  it('folds final sigma and the two noncharacters as the index tokenizer reads them', () => {
    expect(foldForSearch('ΟΔΟΣ')).toBe('οδοσ')
    expect(foldForSearch('οδος')).toBe(foldForSearch('ΟΔΟΣ'))
    expect(foldForSearch('a\uFFFEb\uFFFF')).toBe('a\uFFFDb\uFFFD')
  })

  it('keeps author and message apart', () => {
    expect(searchTextOf('Ana', 'Olá')).toBe(`ana${SEARCH_FIELD_SEPARATOR}ola`)
  })

  it('makes % and _ match only themselves', () => {
    expect(containsPattern('50%')).toBe('%50\\%%')
    expect(containsPattern('a_b')).toBe('%a\\_b%')
    expect(containsPattern('c:\\x')).toBe('%c:\\\\x%')
    expect(like('100% amor', containsPattern('0%'))).toBe(true)
    expect(like('100 amor', containsPattern('0%'))).toBe(false)
    expect(like('a_b', containsPattern('a_b'))).toBe(true)
    expect(like('axb', containsPattern('a_b'))).toBe(false)
    expect(like(searchTextOf('JOÃO', ''), containsPattern('joão'))).toBe(true)
  })

  it('cannot match across the author/message boundary', () => {
    const text = searchTextOf('Ana', 'Bia')
    expect(like(text, containsPattern(`ana${SEARCH_FIELD_SEPARATOR}bia`))).toBe(false)
    expect(like(text, containsPattern('ana bia'))).toBe(false)
  })
})

describe('index query', () => {
  it('is one quoted phrase of the folded query, inner quotes doubled, so nothing typed is FTS5 syntax', () => {
    expect(trigramPhrase('São João')).toBe('"sao joao"')
    expect(trigramPhrase('disse "oi"')).toBe('"disse ""oi"""')
    expect(trigramPhrase('a* OR b')).toBe('"a* or b"')
    expect(trigramPhrase('NEAR(x y)')).toBe('"near(x y)"')
    expect(trigramPhrase('100%')).toBe('"100%"')
  })

  it('is null below three characters (the index holds trigrams), counted after folding, not in UTF-16 units', () => {
    expect(trigramPhrase('jo')).toBeNull()
    expect(trigramPhrase('ção')).toBe('"cao"')
    expect(trigramPhrase('Jo\u0061\u0303')).toBe('"joa"')
    expect(trigramPhrase('o\u0301\u0301')).toBeNull()
    expect(trigramPhrase('🥂🥂')).toBeNull()
    expect(trigramPhrase('🥂🥂🥂')).toBe('"🥂🥂🥂"')
    expect(trigramPhrase('ﬀa')).toBe('"ffa"')
    // Control characters (the field separator among them) are dropped, as from the LIKE pattern.
    expect(trigramPhrase(`ana${SEARCH_FIELD_SEPARATOR}b`)).toBe('"anab"')
    expect(trigramPhrase(`a${SEARCH_FIELD_SEPARATOR}b`)).toBeNull()
  })
})
