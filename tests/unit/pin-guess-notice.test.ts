import { describe, expect, it } from 'vitest'
import { GALLERY_PIN_BUDGET, pinGuessNoticeOf } from '#shared/gallery-pin'

describe('what the Event tab says of wrong gallery PINs', () => {
  const use = (wrongLastHour: number, spentUntil: string | null = null) => ({ wrongLastHour, perHour: 200, spentUntil })

  it('nothing while the guesses look like mistyping, or without a PIN', () => {
    expect(pinGuessNoticeOf(use(GALLERY_PIN_BUDGET.noticeFrom - 1), '1234')).toEqual({ state: 'quiet' })
    expect(pinGuessNoticeOf(use(200, '2026-12-12T21:00:00.000Z'), null)).toEqual({ state: 'quiet' })
    expect(pinGuessNoticeOf(null, '1234')).toEqual({ state: 'quiet' })
  })

  it('the budget being spent, then spent until a moment; a longer PIN suggested below six digits', () => {
    expect(pinGuessNoticeOf(use(GALLERY_PIN_BUDGET.noticeFrom), '1234')).toEqual({
      state: 'spending', wrongLastHour: 50, perHour: 200, spentUntil: null, suggestLonger: true,
    })
    expect(pinGuessNoticeOf(use(200, '2026-12-12T21:00:00.000Z'), '12345')).toEqual({
      state: 'spent', wrongLastHour: 200, perHour: 200, spentUntil: '2026-12-12T21:00:00.000Z', suggestLonger: true,
    })
    expect(pinGuessNoticeOf(use(200, '2026-12-12T21:00:00.000Z'), '123456')).toMatchObject({ state: 'spent', suggestLonger: false })
  })
})
