import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto } from '../support/seed'

// Who sees the gallery is decided by the event's settings, never by the storage: one driver (the
// local disk). Serving the bytes is proven on both drivers by uploads, downloads and media-errors.
describe('who sees the gallery', () => {
  // Behind a trusted proxy, so that the burst below comes from an address of its own.
  const server = useTestServer({ admin: true, env: { TRUST_PROXY: 'x-forwarded-for' } })

  const setEvent = (patch: Record<string, unknown>) =>
    api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
  const adminEvent = async () => (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body
  const gallery = (query = '', headers: Record<string, string> = {}) => api(server.url, `/api/gallery${query}`, { headers })
  const unlock = (pin: string, headers: Record<string, string> = {}) =>
    api(server.url, '/api/gallery/unlock', { method: 'POST', json: { pin }, headers })

  it('starts live, without a PIN, downloads or a limit, with a 128-bit screen key the public never sees', async () => {
    const admin = await adminEvent()
    expect(admin).toMatchObject({
      galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false,
      maxUploadsPerGuest: null, screenInClosedMode: true,
    })
    expect(admin.screenKey).toMatch(/^[\w-]{22,}$/)
    expect(Buffer.from(admin.screenKey, 'base64url').length).toBeGreaterThanOrEqual(16)
    const pub = (await api(server.url, '/api/event')).body
    expect(pub).toMatchObject({ galleryMode: 'live', revealAt: null, galleryPinRequired: false, guestDownloads: false, maxUploadsPerGuest: null })
    expect(pub).not.toHaveProperty('screenKey')
    expect(pub).not.toHaveProperty('galleryPin')
    expect(JSON.stringify(pub)).not.toContain(admin.screenKey)
  })

  it('PATCH refuses a reveal without its moment, a malformed PIN or limit, and changes nothing', async () => {
    const before = await adminEvent()
    for (const body of [
      { galleryMode: 'reveal' },
      { galleryMode: 'reveal', revealAt: null },
      { galleryMode: 'closed' },
      { revealAt: '2026-12-13 10:00' },
      { galleryPin: '123' },
      { galleryPin: '123456789' },
      { galleryPin: '12a4' },
      { galleryPin: 1234 },
      { maxUploadsPerGuest: 0 },
      { maxUploadsPerGuest: 1001 },
      { maxUploadsPerGuest: 2.5 },
      { guestDownloads: 'yes' },
      { screenKey: 'mine' },
    ]) {
      const response = await setEvent(body)
      expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
      expect(Array.isArray(response.body.data.issues)).toBe(true)
    }
    const reveal = await setEvent({ galleryMode: 'reveal' })
    expect(reveal.body.data.issues).toEqual([{ path: ['revealAt'], code: 'custom', message: 'required when galleryMode is reveal' }])
    expect(await adminEvent()).toEqual(before)
  })

  it('PATCH takes each field, and clearing the moment of a reveal is refused', async () => {
    const revealAt = '2026-12-13T10:00:00.000-03:00'
    const set = await setEvent({ galleryMode: 'reveal', revealAt, galleryPin: '00123', guestDownloads: true, maxUploadsPerGuest: 8, screenInClosedMode: false })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ galleryMode: 'reveal', revealAt: '2026-12-13T13:00:00.000Z', galleryPin: '00123', guestDownloads: true, maxUploadsPerGuest: 8, screenInClosedMode: false })
    expect((await setEvent({ revealAt: null })).status).toBe(400)
    expect((await api(server.url, '/api/event')).body).toMatchObject({ galleryMode: 'reveal', revealAt: '2026-12-13T13:00:00.000Z', galleryPinRequired: true })
    const back = await setEvent({ galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false, maxUploadsPerGuest: null, screenInClosedMode: true })
    expect(back.body).toMatchObject({ galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false, maxUploadsPerGuest: null, screenInClosedMode: true })
  })

  it('an upload-only gallery answers 403 GALLERY_CLOSED to guests, and never its items, even to a client holding a live tag', async () => {
    const photo = await seedPhoto(server.url)
    const live = await gallery()
    expect(live.status).toBe(200)
    expect(live.body.items.map((item: any) => item.id)).toContain(photo.id)
    const liveTag = live.headers.get('etag')!
    const liveStatsTag = (await api(server.url, '/api/stats')).headers.get('etag')!

    expect((await setEvent({ galleryMode: 'upload-only' })).status).toBe(200)
    for (const headers of [{}, { 'if-none-match': liveTag }, { 'if-none-match': '*' }] as Record<string, string>[]) {
      const closed = await gallery('', headers)
      expect(closed.status).toBe(403)
      expect(closed.body.data).toEqual({ code: 'GALLERY_CLOSED' })
      expect(closed.headers.get('etag')).toBeNull()
      expect(JSON.stringify(closed.body)).not.toContain(photo.id)
    }
    const stats = await api(server.url, '/api/stats', { headers: { 'if-none-match': liveStatsTag } })
    expect([stats.status, stats.body.data.code]).toEqual([403, 'GALLERY_CLOSED'])
    expect((await api(server.url, '/api/event')).body.galleryMode).toBe('upload-only')

    // Uploads and moderation go on while closed.
    const later = await seedPhoto(server.url)
    expect(later.status).toBe('approved')

    // Open again: the old tag is stale (the mode is part of it), so the client gets the new list.
    await setEvent({ galleryMode: 'live' })
    const reopened = await gallery('', { 'if-none-match': liveTag })
    expect(reopened.status).toBe(200)
    expect(reopened.body.items.map((item: any) => item.id)).toEqual(expect.arrayContaining([photo.id, later.id]))
    expect(reopened.headers.get('etag')).not.toBe(liveTag)
  })

  it('a reveal is closed with its moment until then, and opens at revealAt without a restart', async () => {
    const revealAt = new Date(Date.now() + 2500).toISOString()
    await setEvent({ galleryMode: 'reveal', revealAt })
    const closed = await gallery()
    expect(closed.status).toBe(403)
    expect(closed.body.data).toEqual({ code: 'GALLERY_CLOSED', revealAt })
    expect((await api(server.url, '/api/stats')).body.data).toEqual({ code: 'GALLERY_CLOSED', revealAt })
    await new Promise(resolve => setTimeout(resolve, Date.parse(revealAt) - Date.now() + 100))
    const open = await gallery()
    expect(open.status).toBe(200)
    expect(open.body.items.length).toBeGreaterThan(0)
    expect((await api(server.url, '/api/stats')).status).toBe(200)
    await setEvent({ galleryMode: 'live', revealAt: null })
  })

  it('the screen key lists approved items in upload-only; a wrong or rotated key is no key; screenInClosedMode false keeps the screen out', async () => {
    const photo = await seedPhoto(server.url)
    const { screenKey } = await adminEvent()
    await setEvent({ galleryMode: 'upload-only' })
    const screen = await gallery(`?limit=100&screenKey=${screenKey}`)
    expect(screen.status).toBe(200)
    expect(screen.body.items.map((item: any) => item.id)).toContain(photo.id)
    expect((await gallery(`?screenKey=${screenKey.slice(0, -1)}x`)).body.data.code).toBe('GALLERY_CLOSED')
    expect((await gallery('?screenKey=')).body.data.code).toBe('GALLERY_CLOSED')
    expect((await api(server.url, `/api/stats?screenKey=${screenKey}`)).status).toBe(200)

    await setEvent({ screenInClosedMode: false })
    expect((await gallery(`?screenKey=${screenKey}`)).body.data.code).toBe('GALLERY_CLOSED')
    await setEvent({ screenInClosedMode: true })

    const rotated = await api(server.url, '/api/admin/event/screen-key', { method: 'POST', cookie: server.cookie })
    expect(rotated.status).toBe(200)
    expect(Object.keys(rotated.body)).toEqual(['screenKey'])
    expect(rotated.body.screenKey).not.toBe(screenKey)
    expect((await adminEvent()).screenKey).toBe(rotated.body.screenKey)
    expect((await gallery(`?screenKey=${screenKey}`)).body.data.code).toBe('GALLERY_CLOSED')
    expect((await gallery(`?screenKey=${rotated.body.screenKey}`)).status).toBe(200)
    expect((await api(server.url, '/api/admin/event/screen-key', { method: 'POST' })).status).toBe(401)
    await setEvent({ galleryMode: 'live' })
  })

  it('a PIN asks 401 GALLERY_PIN_REQUIRED until unlocked; the cookie opens it until the PIN changes; the screen key passes', async () => {
    await setEvent({ galleryPin: '2468' })
    const locked = await gallery()
    expect([locked.status, locked.body.data]).toEqual([401, { code: 'GALLERY_PIN_REQUIRED' }])
    expect((await api(server.url, '/api/stats')).status).toBe(401)

    const wrong = await unlock('1357')
    expect([wrong.status, wrong.body.data]).toEqual([403, { code: 'GALLERY_PIN_INVALID' }])
    expect(wrong.headers.get('set-cookie')).toBeNull()
    expect((await unlock('')).status).toBe(400)

    const right = await unlock('2468')
    expect(right.status).toBe(204)
    const setCookie = right.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^em_gallery=[\w-]+;/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(setCookie).toMatch(/Path=\//)
    expect(setCookie).not.toContain('2468')
    const cookie = setCookie.split(';')[0]!
    expect((await gallery('', { cookie })).status).toBe(200)
    expect((await api(server.url, '/api/stats', { headers: { cookie } })).status).toBe(200)
    expect((await gallery('', { cookie: 'em_gallery=forged' })).status).toBe(401)

    const { screenKey } = await adminEvent()
    expect((await gallery(`?screenKey=${screenKey}`)).status).toBe(200)

    await setEvent({ galleryPin: '97531' })
    expect((await gallery('', { cookie })).status).toBe(401)
    await setEvent({ galleryPin: null })
    expect((await gallery()).status).toBe(200)
    // Without a PIN there is nothing to unlock.
    expect((await unlock('0000')).status).toBe(204)
  })

  it('wrong PINs are limited per client, a parallel burst included; the right PIN does not count', async () => {
    await setEvent({ galleryPin: '8642' })
    const client = { 'x-forwarded-for': '203.0.113.7' }
    for (let i = 0; i < 3; i++) expect((await unlock('8642', client)).status).toBe(204)
    const burst = await Promise.all(Array.from({ length: 25 }, () => unlock('1111', client)))
    const statuses = burst.map(response => response.status)
    expect(statuses.filter(status => status === 403)).toHaveLength(10)
    expect(statuses.filter(status => status === 429)).toHaveLength(15)
    const limited = burst.find(response => response.status === 429)!
    expect(limited.body.data.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Even the right PIN waits now: the limit is taken before the PIN is compared.
    expect((await unlock('8642', client)).status).toBe(429)
    // Another client is not slowed.
    expect((await unlock('8642', { 'x-forwarded-for': '203.0.113.8' })).status).toBe(204)
    await setEvent({ galleryPin: null })
  })

  it('the guestbook follows the gallery: 403 GALLERY_CLOSED and 401 GALLERY_PIN_REQUIRED before any tag, the screen key passes, and its tag follows the settings', async () => {
    await setEvent({ galleryMode: 'live', galleryPin: null })
    const sent = await api(server.url, '/api/guestbook', { method: 'POST', json: { author: 'Tia', text: 'Felicidades!' } })
    expect(sent.status).toBe(201)
    const live = await api(server.url, '/api/guestbook')
    expect(live.status).toBe(200)
    expect(live.body.items.map((item: any) => item.id)).toContain(sent.body.id)
    const liveTag = live.headers.get('etag')!

    await setEvent({ galleryMode: 'upload-only' })
    const closed = await api(server.url, '/api/guestbook', { headers: { 'if-none-match': liveTag } })
    expect([closed.status, closed.body.data]).toEqual([403, { code: 'GALLERY_CLOSED' }])
    expect(closed.headers.get('etag')).toBeNull()
    const { screenKey } = await adminEvent()
    const screen = await api(server.url, `/api/guestbook?screenKey=${screenKey}`)
    expect(screen.status).toBe(200)
    expect(screen.body.items.map((item: any) => item.id)).toContain(sent.body.id)

    await setEvent({ galleryMode: 'live', galleryPin: '2468' })
    const guarded = await api(server.url, '/api/guestbook', { headers: { 'if-none-match': liveTag } })
    expect([guarded.status, guarded.body.data]).toEqual([401, { code: 'GALLERY_PIN_REQUIRED' }])

    // Back to the same settings and the same messages: the same tag, so the client's copy stands.
    await setEvent({ galleryPin: null })
    const reopened = await api(server.url, '/api/guestbook', { headers: { 'if-none-match': liveTag } })
    expect(reopened.status).toBe(304)
  })
})
