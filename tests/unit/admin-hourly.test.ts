import { describe, expect, it } from 'vitest'
import { hourlyBars } from '../../app-utils/admin-hourly'

const hour = (h: number) => new Date(Date.UTC(2026, 10, 22, h)).toISOString()

describe('hourlyBars', () => {
  it('shows the hours without uploads as empty bars between the first and the last', () => {
    expect(hourlyBars([{ hour: hour(18), count: 3 }, { hour: hour(21), count: 1 }], 24, 1)).toEqual([
      { hour: hour(18), count: 3 }, { hour: hour(19), count: 0 }, { hour: hour(20), count: 0 }, { hour: hour(21), count: 1 },
    ])
  })

  it('keeps only the latest hours when the uploads span longer than the chart', () => {
    const bars = hourlyBars([{ hour: hour(0), count: 9 }, { hour: hour(10), count: 2 }, { hour: hour(20), count: 5 }], 12)
    expect(bars).toHaveLength(12)
    expect(bars[0]).toEqual({ hour: hour(9), count: 0 })
    expect(bars[1]).toEqual({ hour: hour(10), count: 2 })
    expect(bars.at(-1)).toEqual({ hour: hour(20), count: 5 })
  })

  it('shows the hours before the first uploads as empty, so one busy hour is not one huge bar', () => {
    const bars = hourlyBars([{ hour: hour(20), count: 4 }])
    expect(bars).toHaveLength(12)
    expect(bars[0]).toEqual({ hour: hour(9), count: 0 })
    expect(bars.at(-1)).toEqual({ hour: hour(20), count: 4 })
  })

  it('draws nothing before the first upload', () => {
    expect(hourlyBars([])).toEqual([])
  })
})
