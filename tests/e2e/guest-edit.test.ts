import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, distinctJpeg } from '../support/seed'
import { putBytes, uploadFile } from '../support/uploads'

const edit = (base: string, id: string, token: string | undefined, json: unknown) =>
  api(base, `/api/uploads/${id}`, { method: 'PATCH', json, headers: token === undefined ? {} : { 'x-undo-token': token } })

async function initPhoto(base: string, fields: { author?: string, message?: string } = {}) {
  const bytes = await distinctJpeg()
  const init = await api(base, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length, ...fields } })
  expect(init.status).toBe(201)
  return { bytes, init: init.body }
}

// An edit changes words in the database, never stored bytes: one driver (the local disk). Storing and
// serving the bytes is proven on both drivers by uploads.test.ts.
describe('the sending device edits its upload\'s words', () => {
  const server = useTestServer({ admin: true, db: true, env: { UNDO_WINDOW_SECONDS: '120' } })

  const stored = async (id: string) => (await server.db.execute({ sql: 'SELECT author, message, search_text FROM uploads WHERE id = ?', args: [id] })).rows[0]!

  it('before confirm: the words typed after the transfer began reach the upload, and confirm keeps them', async () => {
    const { bytes, init } = await initPhoto(server.url, { author: 'Ana' })
    const response = await edit(server.url, init.id, init.undoToken, { message: '  Felicidades aos noivos!  ' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: init.id, status: 'pending', author: 'Ana', message: 'Felicidades aos noivos!' })
    expect(await stored(init.id)).toMatchObject({ author: 'Ana', message: 'Felicidades aos noivos!' })

    expect((await putBytes(init.upload.url, bytes, init.upload.headers)).status).toBe(200)
    expect((await api(server.url, `/api/uploads/${init.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const record = await adminRecord(server.url, server.cookie, init.id)
    expect([record.body.author, record.body.message]).toEqual(['Ana', 'Felicidades aos noivos!'])
  })

  it('after confirm, within the window: author and message change, cleaned as init cleans them, and the search finds the new words', async () => {
    const bytes = await distinctJpeg()
    const { init } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, author: '', message: '' })
    const response = await edit(server.url, init.id, init.undoToken, { author: 'Tio\u202E Zé', message: 'Viva!' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: init.id, status: 'approved', author: 'Tio Zé', message: 'Viva!' })
    const record = await adminRecord(server.url, server.cookie, init.id)
    expect([record.body.author, record.body.message]).toEqual(['Tio Zé', 'Viva!'])
    expect(String((await stored(init.id)).search_text)).toContain('viva')
    // An empty patch changes nothing and says what is kept.
    expect((await edit(server.url, init.id, init.undoToken, {})).body).toEqual({ id: init.id, status: 'approved', author: 'Tio Zé', message: 'Viva!' })
  })

  it('a wrong or missing token is 403 UNDO_TOKEN_INVALID, an unknown id 404, and nothing changes', async () => {
    const { init } = await initPhoto(server.url, { author: 'Ana', message: 'Oi' })
    const other = (await initPhoto(server.url)).init
    for (const token of ['not-the-token', other.undoToken, '', undefined]) {
      const response = await edit(server.url, init.id, token, { message: 'Trocada' })
      expect([response.status, response.body.data.code], String(token)).toEqual([403, 'UNDO_TOKEN_INVALID'])
    }
    expect(await stored(init.id)).toMatchObject({ author: 'Ana', message: 'Oi' })
    const unknown = await edit(server.url, 'no-such-upload', init.undoToken, { message: 'x' })
    expect([unknown.status, unknown.body.data.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('the same limits as init: too long, an unknown field or a control character is 400 INVALID_REQUEST, and nothing changes', async () => {
    const { init } = await initPhoto(server.url, { author: 'Ana', message: 'Oi' })
    for (const body of [{ message: 'x'.repeat(1001) }, { author: 'x'.repeat(81) }, { status: 'approved' }, { message: 'a\u0007b' }, { author: 42 }]) {
      const response = await edit(server.url, init.id, init.undoToken, body)
      expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
    }
    expect(await stored(init.id)).toMatchObject({ author: 'Ana', message: 'Oi' })
  })
})

describe('editing after the undo window', () => {
  const server = useTestServer({ admin: true, env: { UNDO_WINDOW_SECONDS: '1' } })

  it('is 409 UNDO_EXPIRED with the right token (403 with a wrong one), and the words stay', async () => {
    const bytes = await distinctJpeg()
    const { init } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, author: 'Ana', message: 'Oi' })
    await new Promise(resolve => setTimeout(resolve, 1500))
    const late = await edit(server.url, init.id, init.undoToken, { message: 'Tarde demais' })
    expect([late.status, late.body.data.code]).toEqual([409, 'UNDO_EXPIRED'])
    const wrong = await edit(server.url, init.id, 'not-the-token', { message: 'Tarde demais' })
    expect([wrong.status, wrong.body.data.code]).toEqual([403, 'UNDO_TOKEN_INVALID'])
    const record = await adminRecord(server.url, server.cookie, init.id)
    expect([record.body.author, record.body.message]).toEqual(['Ana', 'Oi'])
  })
})
