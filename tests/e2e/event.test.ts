import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { COUPLE_NAMES_MAX_LENGTH, MAX_AUDIO_DURATION_LIMIT, MAX_FILE_SIZE_LIMIT, MAX_VIDEO_DURATION_LIMIT } from '../../shared/limits'

describe('event configuration', () => {
  const server = useTestServer({ admin: true })

  const patch = (json: unknown) => api(server.url, '/api/admin/event', { method: 'PATCH', json, cookie: server.cookie })

  it('starts with the contract defaults, public and admin views', async () => {
    const admin = await api(server.url, '/api/admin/event', { cookie: server.cookie })
    expect(admin.status).toBe(200)
    expect(admin.body).toEqual({
      coupleNames: '', eventDate: null, maxFileSizeBytes: 524288000, allowVideos: true,
      maxVideoDurationSec: 300, moderation: 'post', allowAudio: true, maxAudioDurationSec: 120, language: 'pt-BR', coverUploadId: null, updatedAt: expect.any(String),
      galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false, maxUploadsPerGuest: null,
      screenKey: expect.any(String), screenInClosedMode: true, screenSound: false,
      notifyUrl: null, notifyFormat: 'json', notifyOn: 'pending', notifySecret: expect.stringMatching(/^[\w-]{22}$/), notifyLastStatus: null,
    })
    expect(new Date(admin.body.updatedAt).toISOString()).toBe(admin.body.updatedAt)
    const pub = await api(server.url, '/api/event')
    expect(pub.body).toEqual({
      coupleNames: '', eventDate: null, maxFileSizeBytes: 524288000, allowVideos: true,
      maxVideoDurationSec: 300, moderation: 'post', allowAudio: true, maxAudioDurationSec: 120, language: 'pt-BR', cover: null,
      galleryMode: 'live', revealAt: null, galleryPinRequired: false, guestDownloads: false, maxUploadsPerGuest: null, screenSound: false,
    })
  })

  it('PATCH changes any subset, answers the whole configuration, and GET /api/event sees it at once', async () => {
    const response = await patch({ coupleNames: '  Ana & João  ', eventDate: '2026-12-12', moderation: 'pre' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ coupleNames: 'Ana & João', eventDate: '2026-12-12', moderation: 'pre', allowVideos: true, maxFileSizeBytes: 524288000 })
    expect((await api(server.url, '/api/event')).body).toMatchObject({ coupleNames: 'Ana & João', eventDate: '2026-12-12', moderation: 'pre' })

    const more = await patch({ maxFileSizeBytes: 1, allowVideos: false, maxVideoDurationSec: MAX_VIDEO_DURATION_LIMIT, eventDate: null })
    expect(more.body).toMatchObject({ maxFileSizeBytes: 1, allowVideos: false, maxVideoDurationSec: MAX_VIDEO_DURATION_LIMIT, eventDate: null, coupleNames: 'Ana & João' })
    expect((await patch({ maxFileSizeBytes: MAX_FILE_SIZE_LIMIT })).status).toBe(200)
    expect((await patch({})).status).toBe(200)
  })

  it.each([
    [{ coupleNames: '' }],
    [{ coupleNames: '   ' }],
    [{ coupleNames: 'x'.repeat(COUPLE_NAMES_MAX_LENGTH + 1) }],
    [{ coupleNames: 42 }],
    [{ eventDate: '2026-02-30' }],
    [{ eventDate: '12/12/2026' }],
    [{ eventDate: 20261212 }],
    [{ maxFileSizeBytes: 0 }],
    [{ maxFileSizeBytes: MAX_FILE_SIZE_LIMIT + 1 }],
    [{ maxFileSizeBytes: 1.5 }],
    [{ maxFileSizeBytes: '100' }],
    [{ allowVideos: 'yes' }],
    [{ maxVideoDurationSec: 0 }],
    [{ maxVideoDurationSec: MAX_VIDEO_DURATION_LIMIT + 1 }],
    [{ language: 'fr' }],
    [{ language: 'pt' }],
    [{ moderation: 'none' }],
    [{ allowAudio: 1 }],
    [{ maxAudioDurationSec: 0 }],
    [{ maxAudioDurationSec: MAX_AUDIO_DURATION_LIMIT + 1 }],
    [{ coverUploadId: 'abc' }],
    [{ updatedAt: '2026-01-01T00:00:00.000Z' }],
    [{ unknown: true }],
    [[]],
    ['text'],
    [null],
  ])('PATCH %j is 400 INVALID_REQUEST with the validator issues and changes nothing', async (body) => {
    const before = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body
    const response = await patch(body)
    expect(response.status).toBe(400)
    expect(response.body.data.code).toBe('INVALID_REQUEST')
    expect(Array.isArray(response.body.data.issues)).toBe(true)
    expect((await api(server.url, '/api/admin/event', { cookie: server.cookie })).body).toEqual(before)
  })

  it('DELETE /api/admin/event/cover answers the whole configuration with no cover', async () => {
    const response = await api(server.url, '/api/admin/event/cover', { method: 'DELETE', cookie: server.cookie })
    expect(response.status).toBe(200)
    expect(response.body.coverUploadId).toBeNull()
    expect(response.body).toHaveProperty('moderation')
  })

  it('admin event routes answer 401 without a session', async () => {
    expect((await api(server.url, '/api/admin/event')).status).toBe(401)
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'pre' } })).body.data.code).toBe('UNAUTHENTICATED')
    expect((await api(server.url, '/api/admin/event/cover', { method: 'DELETE' })).status).toBe(401)
  })
})
