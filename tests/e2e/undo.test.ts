import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, distinctJpeg, seedUnconfirmed, setModeration, waitForDerived } from '../support/seed'
import { keyOfUrl, uploadFile } from '../support/uploads'

/** A confirmed photo, its undo token and every key it owns once its images are made. */
async function sentPhoto(base: string, cookie: string) {
  const bytes = await distinctJpeg()
  const { init, confirm } = await uploadFile(base, bytes, { contentType: 'image/jpeg', size: bytes.length })
  expect(confirm.status).toBe(200)
  const record = await waitForDerived(base, cookie, init.id)
  const keys = [...new Set([record.url, record.thumbUrl, record.originalUrl].map(keyOfUrl))]
  expect(keys).toHaveLength(3)
  return { id: init.id as string, token: init.undoToken as string, keys }
}

const undo = (base: string, id: string, token?: string) =>
  api(base, `/api/uploads/${id}`, { method: 'DELETE', headers: token === undefined ? {} : { 'x-undo-token': token } })

describe.each(['local', 's3'] as const)('undo within the window (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, db: true, env: { UNDO_WINDOW_SECONDS: '120' } })

  const publicVersion = async () => Number((await server.db.execute(`SELECT version FROM data_versions WHERE name = 'public'`)).rows[0]!.version)

  it('init gives the device a token and the window; the token is kept only as a hash', async () => {
    const bytes = await distinctJpeg()
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })
    expect(init.status).toBe(201)
    expect(init.body.undoToken).toMatch(/^[\w-]{43}$/)
    expect(init.body.undoWindowSec).toBe(120)
    const stored = (await server.db.execute({ sql: 'SELECT undo_token_hash FROM uploads WHERE id = ?', args: [init.body.id] })).rows[0]!
    expect(stored.undo_token_hash).toMatch(/^[\da-f]{64}$/)
    expect(stored.undo_token_hash).not.toContain(init.body.undoToken)
  })

  it('DELETE with the upload\'s token removes the record and every object, as an admin delete does, and the gallery\'s version moves', async () => {
    const photo = await sentPhoto(server.url, server.cookie)
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(true)
    const before = await publicVersion()
    const response = await undo(server.url, photo.id, photo.token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: photo.id, deleted: true })
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(false)
    expect((await adminRecord(server.url, server.cookie, photo.id)).status).toBe(404)
    expect((await api(server.url, '/api/gallery')).body.items.map((item: { id: string }) => item.id)).not.toContain(photo.id)
    // The projector polls the gallery with this version as its ETag: it drops the photo at its next poll.
    expect(await publicVersion()).toBeGreaterThan(before)
    const again = await undo(server.url, photo.id, photo.token)
    expect([again.status, again.body.data.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('confirming again tells the upload\'s status now only to its sender: anyone else gets what the moderation mode gives, for every upload', async () => {
    const photo = await sentPhoto(server.url, server.cookie)
    const other = await sentPhoto(server.url, server.cookie)
    const reject = await api(server.url, `/api/admin/uploads/${photo.id}/reject`, { method: 'POST', cookie: server.cookie })
    expect(reject.status).toBe(200)
    const confirm = (headers: Record<string, string>) => api(server.url, `/api/uploads/${photo.id}/confirm`, { method: 'POST', json: {}, headers })
    // Its sender (the token init gave it) learns the couple's decision.
    expect((await confirm({ 'x-undo-token': photo.token })).body).toEqual({ id: photo.id, status: 'rejected' })
    // Anyone else: post-moderation's answer, as for an upload never moderated.
    for (const headers of [{}, { 'x-undo-token': 'not-the-token' }, { 'x-undo-token': other.token }] as Record<string, string>[]) {
      const response = await confirm(headers)
      expect([response.status, response.body], JSON.stringify(headers)).toEqual([200, { id: photo.id, status: 'approved' }])
    }
    await setModeration(server.url, server.cookie, 'pre')
    try {
      expect((await confirm({})).body).toEqual({ id: photo.id, status: 'pending' })
      expect((await confirm({ 'x-undo-token': photo.token })).body).toEqual({ id: photo.id, status: 'rejected' })
    }
    finally {
      await setModeration(server.url, server.cookie, 'post')
    }
  })

  it('a wrong token, a missing one, or another upload\'s token is 403 UNDO_TOKEN_INVALID, and the upload stays', async () => {
    const photo = await sentPhoto(server.url, server.cookie)
    const other = await sentPhoto(server.url, server.cookie)
    for (const token of ['not-the-token', other.token, '', undefined]) {
      const response = await undo(server.url, photo.id, token)
      expect([response.status, response.body.data.code], String(token)).toEqual([403, 'UNDO_TOKEN_INVALID'])
    }
    expect((await adminRecord(server.url, server.cookie, photo.id)).status).toBe(200)
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(true)
    expect((await undo(server.url, other.id, other.token)).status).toBe(200)
  })

  it('an unknown id, or an upload not confirmed yet, is 404 NOT_FOUND', async () => {
    const unknown = await undo(server.url, 'no-such-upload', 'whatever')
    expect([unknown.status, unknown.body.data.code]).toEqual([404, 'NOT_FOUND'])
    const bytes = await distinctJpeg()
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })
    const pending = await undo(server.url, init.body.id, init.body.undoToken)
    expect([pending.status, pending.body.data.code]).toEqual([404, 'NOT_FOUND'])
    expect((await undo(server.url, await seedUnconfirmed(server.url), 'whatever')).status).toBe(404)
  })
})

describe('undo after the window', () => {
  const server = useTestServer({ admin: true, env: { UNDO_WINDOW_SECONDS: '1' } })

  it('is 409 UNDO_EXPIRED with the right token, 403 with a wrong one, and the upload stays', async () => {
    const photo = await sentPhoto(server.url, server.cookie)
    await new Promise(resolve => setTimeout(resolve, 1500))
    const late = await undo(server.url, photo.id, photo.token)
    expect([late.status, late.body.data.code]).toEqual([409, 'UNDO_EXPIRED'])
    const wrong = await undo(server.url, photo.id, 'not-the-token')
    expect([wrong.status, wrong.body.data.code]).toEqual([403, 'UNDO_TOKEN_INVALID'])
    expect((await adminRecord(server.url, server.cookie, photo.id)).status).toBe(200)
    for (const key of photo.keys) expect(await server.probe.exists(key), key).toBe(true)
    // Only an admin removes it now.
    expect((await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
  })
})
