import { describe, expect, it } from 'vitest'
import { galleryClosedAt } from '../../shared/gallery-mode'
import { formatCountdown, formatRevealMoment } from '../../shared/messages/format.pt-BR'

describe('gallery mode', () => {
  const now = Date.parse('2026-12-12T20:00:00Z')
  it('live is open, upload-only closed, a reveal closed until its moment (and without one)', () => {
    expect(galleryClosedAt('live', null, now)).toBe(false)
    expect(galleryClosedAt('upload-only', '2026-12-12T19:00:00Z', now)).toBe(true)
    expect(galleryClosedAt('reveal', '2026-12-12T20:00:01Z', now)).toBe(true)
    expect(galleryClosedAt('reveal', '2026-12-12T20:00:00Z', now)).toBe(false)
    expect(galleryClosedAt('reveal', new Date('2026-12-12T19:00:00Z'), now)).toBe(false)
    expect(galleryClosedAt('reveal', null, now)).toBe(true)
  })
})

describe('the reveal, in words', () => {
  // Local times: the moment is told in the browser's zone, whatever it is.
  const at = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute).toISOString()
  const evening = new Date(2026, 11, 12, 22, 30).getTime()

  it('says today, tomorrow or the date, with the hour as Brazilians write it', () => {
    expect(formatRevealMoment(at(12, 23), evening)).toBe('hoje às 23h')
    expect(formatRevealMoment(at(13, 10), evening)).toBe('amanhã às 10h')
    expect(formatRevealMoment(at(13, 1), evening)).toBe('amanhã à 1h')
    expect(formatRevealMoment(at(14, 10, 30), evening)).toBe('em 14 de dezembro às 10h30')
  })

  it('counts down in the largest units that matter', () => {
    expect(formatCountdown((2 * 86_400 + 3 * 3600 + 5) * 1000)).toBe('2 d 3 h')
    expect(formatCountdown((3 * 3600 + 5 * 60 + 59) * 1000)).toBe('3 h 05 min')
    expect(formatCountdown((4 * 60 + 9) * 1000)).toBe('4 min 09 s')
    expect(formatCountdown(11_200)).toBe('12 s')
    expect(formatCountdown(-5)).toBe('0 s')
  })
})
