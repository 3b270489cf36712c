import { describe, expect, it } from 'vitest'
import type { AdminEventConfig } from '../../shared/schemas/event'
import { eventFieldBounds, eventPatchOf, formValuesOf, validateEventPatch } from '../../shared/admin/event-form'

const saved: AdminEventConfig = {
  coupleNames: 'Ana & Bruno', eventDate: null, maxFileSizeBytes: 524288000, allowVideos: true,
  maxVideoDurationSec: 300, moderation: 'post', language: 'pt-BR', coverUploadId: null, updatedAt: '2026-11-22T18:00:00.000Z',
}

describe('event configuration form', () => {
  it('shows the size limit in MB and no date as an empty field', () => {
    expect(formValuesOf(saved)).toEqual({
      coupleNames: 'Ana & Bruno', eventDate: '', maxFileSizeMb: 500, allowVideos: true, maxVideoDurationSec: 300, moderation: 'post', language: 'pt-BR',
    })
  })

  it('sends only what changed, in the API units', () => {
    const values = { ...formValuesOf(saved), maxFileSizeMb: '200', moderation: 'pre' as const, eventDate: '2026-12-12' }
    expect(eventPatchOf(values, saved)).toEqual({ maxFileSizeBytes: 209715200, moderation: 'pre', eventDate: '2026-12-12' })
    expect(eventPatchOf(formValuesOf(saved), saved)).toEqual({})
    expect(eventPatchOf({ ...formValuesOf(saved), maxFileSizeMb: '1,5' }, saved)).toEqual({ maxFileSizeBytes: 1572864 })
  })

  it('refuses what the server would refuse, naming the field', () => {
    const check = (change: Record<string, unknown>) => validateEventPatch(eventPatchOf({ ...formValuesOf(saved), ...change }, saved))
    expect(check({ maxVideoDurationSec: '9999' })).toEqual({ ok: false, fields: { maxVideoDurationSec: true } })
    expect(check({ maxVideoDurationSec: '1.5' })).toEqual({ ok: false, fields: { maxVideoDurationSec: true } })
    expect(check({ maxFileSizeMb: '' })).toEqual({ ok: false, fields: { maxFileSizeBytes: true } })
    expect(check({ maxFileSizeMb: '20000' })).toEqual({ ok: false, fields: { maxFileSizeBytes: true } })
    expect(check({ coupleNames: '   ' })).toEqual({ ok: false, fields: { coupleNames: true } })
    expect(check({ eventDate: '2026-02-30' })).toEqual({ ok: false, fields: { eventDate: true } })
    expect(check({ coupleNames: ' Ana ', maxFileSizeMb: 10 })).toEqual({ ok: true, data: { coupleNames: 'Ana', maxFileSizeBytes: 10485760 } })
  })

  it('bounds its number inputs where the schema does: the last value accepted, the next refused', () => {
    expect(eventFieldBounds).toEqual({ maxFileSizeMb: { min: 0, max: 10240 }, maxVideoDurationSec: { min: 1, max: 7200 } })
    const accepted = (change: Record<string, unknown>) => validateEventPatch(eventPatchOf({ ...formValuesOf(saved), ...change }, saved)).ok
    const { maxFileSizeMb, maxVideoDurationSec } = eventFieldBounds
    expect(accepted({ maxFileSizeMb: maxFileSizeMb.max })).toBe(true)
    expect(accepted({ maxFileSizeMb: maxFileSizeMb.max + 1 })).toBe(false)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.min })).toBe(true)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.min - 1 })).toBe(false)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.max })).toBe(true)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.max + 1 })).toBe(false)
  })
})
