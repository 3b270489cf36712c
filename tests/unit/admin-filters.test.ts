import { describe, expect, it } from 'vitest'
import { matchesFilters } from '../../app-utils/admin-filters'

describe('admin list filters', () => {
  it('keeps an upload on screen only while it fits the status and kind filters', () => {
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'pending', kind: 'all' })).toBe(false)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'all', kind: 'all' })).toBe(true)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'approved', kind: 'video' })).toBe(false)
  })
})
