import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { distinctJpeg, waitForDerived } from '../support/seed'
import { putBytes } from '../support/uploads'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/**
 * A gallery closed (upload-only) or behind a PIN tells a client that may not see it nothing about
 * what guests send: `/api/event`'s tag follows the settings and the cover only, and init's
 * "already sent" answer goes only to the device that sent the earlier copy (docs/api.md, "A closed
 * gallery tells nothing").
 */
// Tags and "already sent" answers come from the database and the settings, not the storage: one
// driver (the local disk). Duplicates' stored bytes are proven on both drivers by duplicates.test.ts.
describe('a closed gallery tells nothing of uploads', () => {
  const server = useTestServer({ admin: true, db: true })

  const patchEvent = async (json: Record<string, unknown>) => {
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json, cookie: server.cookie })
    expect(response.status).toBe(200)
  }

  /** The `name=value` of a cookie an answer set. */
  const cookieOf = (headers: Headers, name: string) => headers.getSetCookie().map(line => line.split(';')[0]!).find(pair => pair.startsWith(`${name}=`))

  /** The PIN cookie, from the unlock a guest's browser makes. */
  async function pinCookie(pin: string): Promise<string> {
    const unlocked = await api(server.url, '/api/gallery/unlock', { method: 'POST', json: { pin } })
    expect(unlocked.status).toBe(204)
    return cookieOf(unlocked.headers, 'em_gallery')!
  }

  /** init with the bytes' hash, as `cookie`'s device (none: a new device). */
  const init = (bytes: Buffer, cookie?: string) => api(server.url, '/api/uploads/init', {
    method: 'POST', cookie, json: { fileName: 'IMG_0001.JPG', contentType: 'image/jpeg', size: bytes.length, hash: sha256(bytes), author: 'Convidada' },
  })

  /** A whole upload from the device holding `cookie` (none: a new one); its id and the device's cookie. */
  async function send(bytes: Buffer, cookie?: string) {
    const started = await init(bytes, cookie)
    expect(started.status).toBe(201)
    expect((await putBytes(started.body.upload.url, bytes, started.body.upload.headers)).status).toBe(200)
    const confirmed = await api(server.url, `/api/uploads/${started.body.id}/confirm`, { method: 'POST', headers: { 'x-undo-token': started.body.undoToken } })
    expect(confirmed.status).toBe(200)
    return { id: started.body.id as string, status: confirmed.body.status as string, device: cookie ?? cookieOf(started.headers, 'em_guest')! }
  }

  const approve = async (id: string) => expect((await api(server.url, `/api/admin/uploads/${id}/approve`, { method: 'POST', cookie: server.cookie })).status).toBe(200)

  const eventTag = async (cookie?: string) => {
    const response = await api(server.url, '/api/event', { cookie })
    expect(response.status).toBe(200)
    return response.headers.get('etag')!
  }

  /** The tag before, given back: 304 and the same tag, with and without cookies of any kind. */
  async function expectEventUnchanged(tag: string, cookies: (string | undefined)[]) {
    for (const cookie of cookies) {
      const response = await api(server.url, '/api/event', { cookie, headers: { 'if-none-match': tag } })
      expect(response.status).toBe(304)
      expect(response.headers.get('etag')).toBe(tag)
    }
  }

  it('GET /api/event keeps its tag across an upload and its approval while the gallery is upload-only', async () => {
    await patchEvent({ galleryMode: 'upload-only', galleryPin: null, moderation: 'pre' })
    const tag = await eventTag()
    const sent = await send(await distinctJpeg())
    expect(sent.status).toBe('pending')
    await expectEventUnchanged(tag, [undefined, sent.device])
    await approve(sent.id)
    // Its public images made too: the last write an upload brings.
    await waitForDerived(server.url, server.cookie, sent.id)
    await expectEventUnchanged(tag, [undefined, sent.device, 'em_guest=forged'])
    expect(await eventTag(sent.device)).toBe(tag)
  })

  it('GET /api/event keeps its tag across an upload and its approval while a PIN guards the gallery, for clients with and without the PIN\'s cookie', async () => {
    await patchEvent({ galleryMode: 'live', galleryPin: '5173', moderation: 'pre' })
    const unlocked = await pinCookie('5173')
    const tag = await eventTag()
    expect(await eventTag(unlocked)).toBe(tag)
    const sent = await send(await distinctJpeg())
    await approve(sent.id)
    await waitForDerived(server.url, server.cookie, sent.id)
    await expectEventUnchanged(tag, [undefined, sent.device, unlocked])
    expect((await api(server.url, '/api/gallery', { cookie: unlocked })).body.items.map((item: any) => item.id)).toContain(sent.id)
  })

  it('GET /api/event\'s tag still follows the settings and the cover', async () => {
    await patchEvent({ galleryMode: 'upload-only', galleryPin: null, moderation: 'post' })
    const sent = await send(await distinctJpeg())
    await waitForDerived(server.url, server.cookie, sent.id)
    const tag = await eventTag()
    await patchEvent({ coupleNames: 'Ana & Bruno, outra vez' })
    const renamed = await api(server.url, '/api/event', { headers: { 'if-none-match': tag } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.coupleNames).toBe('Ana & Bruno, outra vez')
    const afterRename = renamed.headers.get('etag')!
    expect(afterRename).not.toBe(tag)
    expect((await api(server.url, `/api/admin/uploads/${sent.id}/cover`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    const covered = await api(server.url, '/api/event', { headers: { 'if-none-match': afterRename } })
    expect(covered.status).toBe(200)
    expect(covered.body.cover.id).toBe(sent.id)
    // The cover's images being made anew moves the tag with the answer (any writer: here the file).
    const withCover = covered.headers.get('etag')!
    await server.db.execute({ sql: 'update uploads set display_key = null where id = ?', args: [sent.id] })
    const hidden = await api(server.url, '/api/event', { headers: { 'if-none-match': withCover } })
    expect([hidden.status, hidden.body.cover]).toEqual([200, null])
    expect((await api(server.url, '/api/admin/event/cover', { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
  })

  it('while upload-only, init answers "already sent" only to the device that sent the earlier copy; another device\'s identical bytes are a new upload', async () => {
    await patchEvent({ galleryMode: 'upload-only', galleryPin: null, moderation: 'post' })
    const bytes = await distinctJpeg()
    const first = await send(bytes)
    expect(first.status).toBe('approved')

    const stranger = await init(bytes)
    expect(stranger.status).toBe(201)
    expect(stranger.body.id).not.toBe(first.id)
    expect(stranger.body.upload.type).toBe('single')
    expect(stranger.body.undoToken).toMatch(/^[\w-]{43}$/)
    // Another device with a cookie of its own, and a forged cookie, are strangers too.
    const other = await send(await distinctJpeg())
    expect((await init(bytes, other.device)).status).toBe(201)
    expect((await init(bytes, 'em_guest=AAAAAAAAAAAAAAAAAAAAAA.forged')).status).toBe(201)

    const sender = await init(bytes, first.device)
    expect(sender.status).toBe(200)
    expect(sender.body).toEqual({ id: first.id, kind: 'photo', duplicate: true })

    // The stranger's identical bytes go through confirm as any upload: a second copy, confirmed
    // under the event's moderation, that the couple sees beside the first.
    expect((await putBytes(stranger.body.upload.url, bytes, stranger.body.upload.headers)).status).toBe(200)
    const confirmed = await api(server.url, `/api/uploads/${stranger.body.id}/confirm`, { method: 'POST', headers: { 'x-undo-token': stranger.body.undoToken } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toEqual({ id: stranger.body.id, status: 'approved' })
    const rows = await server.db.execute({ sql: 'SELECT id FROM uploads WHERE content_hash = ? AND confirmed_at IS NOT NULL ORDER BY rowid', args: [sha256(bytes)] })
    expect(rows.rows.map(row => row.id)).toEqual([first.id, stranger.body.id])
  })

  it('behind a PIN, "already sent" goes to the sender and to browsers holding the PIN\'s cookie; an open gallery tells anyone', async () => {
    await patchEvent({ galleryMode: 'live', galleryPin: '2486', moderation: 'post' })
    const bytes = await distinctJpeg()
    const first = await send(bytes)
    expect((await init(bytes)).status).toBe(201)
    expect((await init(bytes, first.device)).body).toEqual({ id: first.id, kind: 'photo', duplicate: true })
    const unlocked = await init(bytes, await pinCookie('2486'))
    expect([unlocked.status, unlocked.body]).toEqual([200, { id: first.id, kind: 'photo', duplicate: true }])

    await patchEvent({ galleryPin: null })
    const open = await init(bytes)
    expect([open.status, open.body]).toEqual([200, { id: first.id, kind: 'photo', duplicate: true }])
  })
})
