import { describe, expect, it } from 'vitest'
import { holdMs } from '../../composables/slideshow/useSlideshow'
import { MESSAGE_MAX_LENGTH } from '../../shared/limits'

describe('how long the projector holds a slide with words', () => {
  it('keeps the chosen pace for no message or a short one', () => {
    expect(holdMs(6000, '')).toBe(6000)
    expect(holdMs(6000, '   ')).toBe(6000)
    expect(holdMs(6000, 'Felicidades!')).toBe(6000)
  })

  it('holds a long message for the time its words need: 2 s, then 15 characters a second', () => {
    expect(holdMs(2400, 'x'.repeat(600))).toBe(42_000)
    expect(holdMs(60_000, 'x'.repeat(600))).toBe(60_000)
    // The longest message a guest can send: 68.7 s, all of it on screen.
    expect(holdMs(6000, 'x'.repeat(MESSAGE_MAX_LENGTH))).toBeCloseTo(68_667, 0)
  })
})
