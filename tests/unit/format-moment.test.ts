import { describe, expect, it } from 'vitest'
import { formatMoment, hourOptionsOf } from '../../shared/messages/format'
import { formatDateTime as englishDateTime, formatHour as englishHour } from '../../shared/messages/format.en'
import { formatDateTime as portugueseDateTime } from '../../shared/messages/format.pt-BR'

// 06:40 UTC is 03:40 in São Paulo (UTC−3, no summer time since 2019).
const NIGHT = '2026-12-13T06:40:00Z'
const AFTERNOON = '2026-12-13T18:04:00Z'

describe('formatMoment: a moment with its year on a given clock (the printed book\'s times)', () => {
  it('English writes "3:40 AM", the hour without a leading zero', () => {
    expect(formatMoment('en', NIGHT, 'America/Sao_Paulo')).toBe('12/13/2026, 3:40 AM')
    expect(formatMoment('en', AFTERNOON, 'America/Sao_Paulo')).toBe('12/13/2026, 3:04 PM')
    expect(formatMoment('en', '2026-12-13T02:05:00Z', 'UTC')).toBe('12/13/2026, 2:05 AM')
    expect(formatMoment('en', '2026-12-13T12:30:00Z', 'UTC')).toBe('12/13/2026, 12:30 PM')
  })

  it('Portuguese and Spanish keep the 24-hour clock with two digits', () => {
    expect(formatMoment('pt-BR', NIGHT, 'America/Sao_Paulo')).toBe('13/12/2026, 03:40')
    expect(formatMoment('es', NIGHT, 'America/Sao_Paulo')).toBe('13/12/2026, 03:40')
    expect(formatMoment('pt-BR', AFTERNOON, 'America/Sao_Paulo')).toBe('13/12/2026, 15:04')
  })

  it('the same hour rule feeds the pages\' formatters: no "03:40 AM" in English there either', () => {
    expect(hourOptionsOf('en')).toEqual({ hour: 'numeric', hourCycle: 'h12' })
    expect(hourOptionsOf('pt-BR')).toEqual({ hour: '2-digit', hourCycle: 'h23' })
    expect(englishDateTime(NIGHT)).toMatch(/^\d{2}\/\d{2}, (?:[1-9]|1[0-2]):\d{2}\s(?:AM|PM)$/)
    expect(portugueseDateTime(NIGHT)).toMatch(/^\d{2}\/\d{2}, (?:[01]\d|2[0-3]):\d{2}$/)
    expect(englishHour(NIGHT)).toMatch(/^(?:[1-9]|1[0-2])\s(?:AM|PM)$/)
  })
})
