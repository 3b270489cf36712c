import { describe, expect, it } from 'vitest'
import { CoalescedCounter } from '../../server/utils/reactions/counts-version'

describe('the gallery\'s coalesced reactions counter', () => {
  it('takes a change after a quiet spell at once', () => {
    const counter = new CoalescedCounter(1000)
    expect(counter.seen(7, 10, 0)).toBe(10)
    expect(counter.seen(7, 11, 5000)).toBe(11)
  })

  it('holds later changes until the interval is over, then takes the latest', () => {
    const counter = new CoalescedCounter(1000)
    expect(counter.seen(7, 10, 0)).toBe(10)
    expect(counter.seen(7, 11, 100)).toBe(10)
    expect(counter.seen(7, 15, 999)).toBe(10)
    expect(counter.seen(7, 16, 1000)).toBe(16)
    expect(counter.seen(7, 17, 1500)).toBe(16)
    // Nothing is lost: with no new heart, the held value is taken up by the first read after the interval.
    expect(counter.seen(7, 17, 2000)).toBe(17)
  })

  it('follows a new database (another epoch) at once', () => {
    const counter = new CoalescedCounter(1000)
    expect(counter.seen(7, 10, 0)).toBe(10)
    expect(counter.seen(8, 0, 10)).toBe(0)
  })
})
