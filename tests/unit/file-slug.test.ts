import { describe, expect, it } from 'vitest'
import { fileSlug } from '../../shared/file-slug'

describe('fileSlug', () => {
  it('turns the couple names into a file name stem: accents dropped, "&" read as "e"', () => {
    expect(fileSlug('Ana & João')).toBe('ana-e-joao')
    expect(fileSlug('  Márcia e Zé  ')).toBe('marcia-e-ze')
    expect(fileSlug('Çécília/Ñuno: 2026!')).toBe('cecilia-nuno-2026')
  })

  it('falls back when nothing usable is left, and stays short', () => {
    expect(fileSlug('')).toBe('evento')
    expect(fileSlug('💍 ❤️')).toBe('evento')
    expect(fileSlug('a'.repeat(100))).toHaveLength(60)
  })
})
