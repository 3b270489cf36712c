import { describe, expect, it } from 'vitest'
import { formatBytes, formatDuration, formatEventDate } from '../../shared/messages/format.pt-BR'
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
