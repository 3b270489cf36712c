import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { mp4 } from '../support/fixtures'
import { api } from '../support/http'
import { derivationSettled, distinctJpeg } from '../support/seed'
import { putBytes } from '../support/uploads'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** One guest device: its `em_guest` cookie once the first init gave it. */
function device(base: string) {
  let cookie = ''
  const call = async (path: string, init: Parameters<typeof api>[2] = {}) => {
    const response = await api(base, path, { ...init, cookie: cookie || undefined })
    const set = response.headers.get('set-cookie')
    if (set?.startsWith('em_guest=')) cookie = set.split(';')[0]!
    return response
  }
  const init = (bytes: Buffer, extra: Record<string, unknown> = {}) => call('/api/uploads/init', {
    method: 'POST', json: { fileName: 'IMG.JPG', contentType: 'image/jpeg', size: bytes.length, author: 'Maria', ...extra },
  })
  /** init → PUT → confirm: the confirm's answer and the init's. */
  const send = async (bytes: Buffer, extra: Record<string, unknown> = {}) => {
    const started = await init(bytes, extra)
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    expect((await putBytes(started.body.upload.url, bytes, started.body.upload.headers)).status).toBe(200)
    const confirm = await call(`/api/uploads/${started.body.id}/confirm`, { method: 'POST' })
    expect(confirm.status).toBe(200)
    return started.body
  }
  const mine = (query = '') => call(`/api/uploads/mine${query}`)
  return {
    call, init, send, mine,
    get cookie() {
      return cookie
    },
  }
}

// A device's limit and its list are counted in the database, not the storage: one driver (the local
// disk). Storing and serving the bytes is proven on both drivers by uploads.test.ts.
describe('a guest device: its limit and its uploads', () => {
  const server = useTestServer({ admin: true, env: { TRUST_PROXY: 'x-forwarded-for' } })
  const setEvent = (patch: Record<string, unknown>) =>
    api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })

  it('the first init sets a signed em_guest cookie: HttpOnly, SameSite=Lax, 180 days', async () => {
    const response = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 } })
    expect(response.status).toBe(201)
    const set = response.headers.get('set-cookie')!
    expect(set).toMatch(/^em_guest=[\w-]{22}\.[\w-]{43};/)
    expect(set).toMatch(/Max-Age=15552000/)
    expect(set).toMatch(/HttpOnly/i)
    expect(set).toMatch(/SameSite=Lax/i)
    expect(set).toMatch(/Path=\//)
    await api(server.url, `/api/uploads/${response.body.id}/abort`, { method: 'POST' })
  })

  it('the limit counts confirmed and in-flight uploads of one device; aborted, undone and duplicate ones do not count', async () => {
    await setEvent({ maxUploadsPerGuest: 3 })
    const phone = device(server.url)
    const first = await phone.send(await distinctJpeg())
    const second = await phone.send(await distinctJpeg())
    const inFlight = await phone.init(await distinctJpeg())
    expect(inFlight.status).toBe(201)

    const refused = await phone.init(await distinctJpeg())
    expect(refused.status).toBe(403)
    expect(refused.body.data).toEqual({ code: 'GUEST_LIMIT_REACHED', limit: 3, used: 3 })

    expect((await phone.call(`/api/uploads/${inFlight.body.id}/abort`, { method: 'POST' })).status).toBe(200)
    const third = await phone.send(await distinctJpeg())
    expect((await phone.init(await distinctJpeg())).body.data).toMatchObject({ code: 'GUEST_LIMIT_REACHED', used: 3 })

    const undo = await phone.call(`/api/uploads/${second.id}`, { method: 'DELETE', headers: { 'x-undo-token': second.undoToken } })
    expect(undo.status).toBe(200)
    expect((await phone.mine()).body).toMatchObject({ limit: 3, used: 2 })
    await phone.send(await distinctJpeg())
    expect((await phone.init(await distinctJpeg())).status).toBe(403)

    // Another device has its own count; a cookie this server did not sign is a new device.
    const other = device(server.url)
    await other.send(await distinctJpeg())
    expect((await api(server.url, '/api/uploads/init', {
      method: 'POST', cookie: `em_guest=${phone.cookie.slice(9, 31)}.forged`, json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 },
    })).status).toBe(201)
    expect([first.id, third.id].every(Boolean)).toBe(true)
    await setEvent({ maxUploadsPerGuest: null })
    expect((await phone.init(await distinctJpeg())).status).toBe(201)
  })

  it('a duplicate answers the earlier upload and takes no place', async () => {
    await setEvent({ maxUploadsPerGuest: 1 })
    const phone = device(server.url)
    const bytes = await distinctJpeg()
    await phone.send(bytes, { hash: sha256(bytes) })
    const duplicate = await phone.init(bytes, { hash: sha256(bytes) })
    expect([duplicate.status, duplicate.body.duplicate]).toEqual([200, true])
    expect((await phone.mine()).body).toMatchObject({ limit: 1, used: 1 })
    await setEvent({ maxUploadsPerGuest: null })
  })

  it('parallel inits beyond the limit: exactly the limit pass', async () => {
    await setEvent({ maxUploadsPerGuest: 3 })
    const phone = device(server.url)
    await phone.send(await distinctJpeg()) // the cookie
    const burst = await Promise.all(Array.from({ length: 8 }, async () => phone.init(await distinctJpeg())))
    expect(burst.map(response => response.status).sort()).toEqual([201, 201, 403, 403, 403, 403, 403, 403])
    expect((await phone.mine()).body.used).toBe(3)
    await setEvent({ maxUploadsPerGuest: null })
  })

  it('"mine" lists this device\'s confirmed uploads, newest first, paged, with undo until; never another device\'s; in any mode', async () => {
    await setEvent({ moderation: 'pre', galleryMode: 'upload-only' })
    const phone = device(server.url)
    const photo = await phone.send(await distinctJpeg())
    await derivationSettled(server.url)
    await setEvent({ moderation: 'post' })
    const video = mp4(4096 + 77)
    const clip = await phone.send(video, { contentType: 'video/mp4', durationSec: 3, fileName: 'V.MP4' })
    const unconfirmed = await phone.init(await distinctJpeg())
    const other = device(server.url)
    const theirs = await other.send(await distinctJpeg())

    const page = await phone.mine()
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(page.body.items.map((item: any) => item.id)).toEqual([clip.id, photo.id])
    expect(page.body.nextCursor).toBeNull()
    const [first, second] = page.body.items
    expect(Object.keys(first).sort()).toEqual(['createdAt', 'id', 'kind', 'status', 'undoUntil'])
    expect(first).toMatchObject({ kind: 'video', status: 'approved' })
    expect(second).toMatchObject({ kind: 'photo', status: 'pending', thumbUrl: expect.stringMatching(/^https?:\/\//) })
    expect(Date.parse(second.undoUntil)).toBeGreaterThan(Date.now())
    expect(JSON.stringify(page.body)).not.toContain(theirs.id)
    expect(JSON.stringify(page.body)).not.toContain(unconfirmed.body.id)

    const one = await phone.mine('?limit=1')
    expect(one.body.items.map((item: any) => item.id)).toEqual([clip.id])
    const next = await phone.mine(`?limit=1&cursor=${encodeURIComponent(one.body.nextCursor)}`)
    expect(next.body.items.map((item: any) => item.id)).toEqual([photo.id])
    expect(next.body.nextCursor).toBeNull()
    expect((await phone.mine('?cursor=nope')).status).toBe(400)

    const rejected = await api(server.url, `/api/admin/uploads/${photo.id}/reject`, { method: 'POST', cookie: server.cookie })
    expect(rejected.status).toBe(200)
    expect((await phone.mine()).body.items[1].status).toBe('rejected')

    // A device seen for the first time gets its cookie here (the upload page asks this first).
    const stranger = await api(server.url, '/api/uploads/mine')
    expect(stranger.body).toEqual({ items: [], nextCursor: null, limit: null, used: 0, answeredChallenges: [] })
    expect(stranger.headers.get('set-cookie')).toMatch(/^em_guest=/)
    await setEvent({ galleryMode: 'live' })
  })
})
