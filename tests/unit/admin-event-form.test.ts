import { describe, expect, it } from 'vitest'
import type { AdminEventConfig } from '../../shared/schemas/event'
import { eventFieldBounds, eventPatchOf, formValuesOf, validateEventPatch } from '../../shared/admin/event-form'

const saved: AdminEventConfig = {
  coupleNames: 'Ana & Bruno', eventDate: null, maxFileSizeBytes: 524288000, allowVideos: true,
  maxVideoDurationSec: 300, moderation: 'post', allowAudio: true, maxAudioDurationSec: 120, language: 'pt-BR', coverUploadId: null, updatedAt: '2026-11-22T18:00:00.000Z',
  galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false, maxUploadsPerGuest: null,
  screenKey: 'k'.repeat(22), screenInClosedMode: true, screenSound: false,
  notifyUrl: null, notifyFormat: 'json', notifyOn: 'pending', notifySecret: 's'.repeat(22), notifyLastStatus: null,
}

describe('event configuration form', () => {
  it('shows the size limit in MB and no date as an empty field', () => {
    expect(formValuesOf(saved)).toEqual({
      coupleNames: 'Ana & Bruno', eventDate: '', maxFileSizeMb: 500, allowVideos: true, maxVideoDurationSec: 300, moderation: 'post',
      allowAudio: true, maxAudioDurationSec: 120, language: 'pt-BR',
      galleryMode: 'live', revealAt: '', galleryPin: '', guestDownloads: false, maxUploadsPerGuest: '', screenInClosedMode: true, screenSound: false,
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
    expect(eventFieldBounds).toEqual({ maxFileSizeMb: { min: 0, max: 10240 }, maxVideoDurationSec: { min: 1, max: 7200 }, maxAudioDurationSec: { min: 1, max: 600 }, maxUploadsPerGuest: { min: 1, max: 1000 } })
    const accepted = (change: Record<string, unknown>) => validateEventPatch(eventPatchOf({ ...formValuesOf(saved), ...change }, saved)).ok
    const { maxFileSizeMb, maxVideoDurationSec } = eventFieldBounds
    expect(accepted({ maxFileSizeMb: maxFileSizeMb.max })).toBe(true)
    expect(accepted({ maxFileSizeMb: maxFileSizeMb.max + 1 })).toBe(false)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.min })).toBe(true)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.min - 1 })).toBe(false)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.max })).toBe(true)
    expect(accepted({ maxVideoDurationSec: maxVideoDurationSec.max + 1 })).toBe(false)
    expect(accepted({ maxAudioDurationSec: eventFieldBounds.maxAudioDurationSec.max })).toBe(true)
    expect(accepted({ maxAudioDurationSec: eventFieldBounds.maxAudioDurationSec.max + 1 })).toBe(false)
  })

  it('gallery controls: a reveal typed in local time goes as an instant, empty PIN and limit as null', () => {
    const local = '2026-12-13T10:00'
    const patch = eventPatchOf({ ...formValuesOf(saved), galleryMode: 'reveal', revealAt: local, galleryPin: ' 0123 ', maxUploadsPerGuest: '8', guestDownloads: true }, saved)
    expect(patch).toEqual({ galleryMode: 'reveal', revealAt: new Date(local).toISOString(), galleryPin: '0123', maxUploadsPerGuest: 8, guestDownloads: true })
    expect(validateEventPatch(patch).ok).toBe(true)

    const revealing = { ...saved, galleryMode: 'reveal' as const, revealAt: '2026-12-13T13:00:30.000Z', galleryPin: '0123', maxUploadsPerGuest: 8 }
    // The input drops the seconds: showing the saved moment sends nothing.
    expect(eventPatchOf(formValuesOf(revealing), revealing)).toEqual({})
    expect(eventPatchOf({ ...formValuesOf(revealing), galleryPin: '', maxUploadsPerGuest: ' ' }, revealing)).toEqual({ galleryPin: null, maxUploadsPerGuest: null })
  })

  it('gallery controls: refuses a short PIN, a limit out of bounds and a half-typed moment', () => {
    const check = (change: Record<string, unknown>) => validateEventPatch(eventPatchOf({ ...formValuesOf(saved), ...change }, saved))
    expect(check({ galleryPin: '123' })).toEqual({ ok: false, fields: { galleryPin: true } })
    expect(check({ galleryPin: '12a4' })).toEqual({ ok: false, fields: { galleryPin: true } })
    expect(check({ maxUploadsPerGuest: '0' })).toEqual({ ok: false, fields: { maxUploadsPerGuest: true } })
    expect(check({ maxUploadsPerGuest: '1001' })).toEqual({ ok: false, fields: { maxUploadsPerGuest: true } })
    expect(check({ revealAt: 'amanhã' })).toEqual({ ok: false, fields: { revealAt: true } })
  })
})
