import { describe, expect, it } from 'vitest'
import { matchesFilters } from '../../app-utils/admin-filters'

describe('admin list filters', () => {
  it('keeps an upload on screen only while it fits the status and kind filters', () => {
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'pending', kind: 'all' })).toBe(false)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'all', kind: 'all' })).toBe(true)
    expect(matchesFilters({ status: 'approved', kind: 'photo' }, { status: 'approved', kind: 'video' })).toBe(false)
  })
})

describe('admin list filters by moment and challenge', () => {
  it('lets an upload moved to another moment (or out of every one) leave a moment\'s list', () => {
    const upload = { status: 'approved' as const, kind: 'photo' as const, momentId: 'festa', challengeId: 'selfie' }
    expect(matchesFilters(upload, { status: 'all', kind: 'all', moment: 'festa', challenge: '' })).toBe(true)
    expect(matchesFilters(upload, { status: 'all', kind: 'all', moment: 'brinde', challenge: '' })).toBe(false)
    expect(matchesFilters({ ...upload, momentId: null }, { status: 'all', kind: 'all', moment: 'festa', challenge: '' })).toBe(false)
    expect(matchesFilters(upload, { status: 'all', kind: 'all', moment: '', challenge: 'selfie' })).toBe(true)
    expect(matchesFilters(upload, { status: 'all', kind: 'all', moment: '', challenge: 'danca' })).toBe(false)
  })
})
