import { describe, expect, it } from 'vitest'
import * as en from '../../shared/messages/format.en'
import * as es from '../../shared/messages/format.es'
import { formatBytes, formatDuration, formatEventDate } from '../../shared/messages/format.pt-BR'
import * as ptBRFormat from '../../shared/messages/format.pt-BR'
import { ptBR } from '../../shared/messages/pt-BR'

describe('pt-BR formatting', () => {
  it('formats sizes the way phones show them', () => {
    expect(formatBytes(500)).toBe('500 bytes')
    expect(formatBytes(52428800)).toBe('50 MB')
    expect(formatBytes(524288000)).toBe('500 MB')
    expect(formatBytes(3.25 * 1024 * 1024)).toBe('3,3 MB')
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1,5 GB')
  })

  it('formats durations in words', () => {
    expect(formatDuration(1)).toBe('1 segundo')
    expect(formatDuration(45.4)).toBe('45 segundos')
    expect(formatDuration(300)).toBe('5 minutos')
    expect(formatDuration(60)).toBe('1 minuto')
    expect(formatDuration(150)).toBe('2 min 30 s')
  })

  it('formats the event date as a calendar date, whatever the time zone', () => {
    expect(formatEventDate('2026-12-12')).toBe('12 de dezembro de 2026')
    expect(formatEventDate('2027-01-01')).toBe('1 de janeiro de 2027')
  })

  it('counts only what was new as sent, and says apart what the gallery already had', () => {
    expect(ptBR.upload.successCount(1)).toBe('1 arquivo enviado. Muito obrigado!')
    expect(ptBR.upload.successCount(1, 2)).toBe('1 arquivo enviado, 2 já estavam na galeria. Muito obrigado!')
    expect(ptBR.upload.successCount(0, 1)).toBe('O arquivo já estava na galeria. Muito obrigado!')
  })
})

describe('whole numbers under 1000, written without Intl', () => {
  // formatCount and formatBytes skip Intl for them (its first use is slow on a phone): each
  // language must still read exactly as Intl writes it, on both sides of the boundary.
  const languages = [['pt-BR', ptBRFormat], ['en', en], ['es', es]] as const
  it.each(languages)('%s: counts and sizes read as Intl writes them', (locale, format) => {
    const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
    const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })
    for (const count of [0, 1, 7, 42, 500, 999, 1000, 1234, 25_000, 1_000_000]) {
      expect(format.formatCount(count)).toBe(integer.format(count))
    }
    for (const [bytes, shown, unit] of [[0, 0, 'bytes'], [999, 999, 'bytes'], [1000, 1000, 'bytes'], [500 * 1024 ** 2, 500, 'MB'], [999 * 1024 ** 2, 999, 'MB'], [1000 * 1024 ** 2, 1000, 'MB'], [1.5 * 1024 ** 3, 1.5, 'GB'], [3.25 * 1024 ** 2, 3.3, 'MB']] as const) {
      expect(format.formatBytes(bytes)).toBe(`${decimal.format(shown)} ${unit}`)
    }
  })
})
