import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { distinctJpeg } from '../support/seed'
import { putBytes, sendParts } from '../support/uploads'

/**
 * Init tried again with the phone's key for the file (`clientKey`): its first answer lost on the
 * venue's Wi-Fi after the server wrote the record, or the page and its service worker both sending
 * the same queued file. However often init comes, the file arrives once.
 */
describe.each(['local', 's3'] as const)('init tried again with the same clientKey (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, db: true })

  const init = (json: Record<string, unknown>) => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'IMG_0420.JPG', contentType: 'image/jpeg', ...json } })
  const rowsOf = async (clientKey: string) =>
    (await server.db.execute({ sql: 'SELECT id, author, message, confirmed_at FROM uploads WHERE client_key = ?', args: [clientKey] })).rows
  const undo = (id: string, token: string) => api(server.url, `/api/uploads/${id}`, { method: 'DELETE', headers: { 'x-undo-token': token } })

  it('the answer lost, init again answers 200 with the same upload, its newer words and a fresh token; the file arrives once', async () => {
    const bytes = await distinctJpeg()
    const clientKey = randomUUID()
    const first = await init({ size: bytes.length, author: 'Tia', message: '', clientKey })
    expect(first.status).toBe(201)
    // The phone never saw that answer: it tries again with what the fields say now.
    const again = await init({ size: bytes.length, author: 'Tia Lu', message: 'Que festa!', clientKey })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: first.body.id, status: 'pending', kind: 'photo', undoWindowSec: first.body.undoWindowSec, upload: { type: 'single', method: 'PUT' } })
    expect(again.body.undoToken).toMatch(/^[\w-]{43}$/)
    expect(again.body.undoToken).not.toBe(first.body.undoToken)
    expect(Date.parse(again.body.expiresAt)).toBeGreaterThan(Date.now())

    expect((await putBytes(again.body.upload.url, bytes, again.body.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${first.body.id}/confirm`, { method: 'POST' })
    expect([confirm.status, confirm.body]).toEqual([200, { id: first.body.id, status: 'approved' }])
    const rows = await rowsOf(clientKey)
    expect(rows.map(row => [row.id, row.author, row.message])).toEqual([[first.body.id, 'Tia Lu', 'Que festa!']])
    expect(rows[0]!.confirmed_at).not.toBeNull()

    // Confirmed: init once more says it is there already, nothing new is stored.
    const late = await init({ size: bytes.length, author: 'Tia Lu', clientKey })
    expect([late.status, late.body]).toEqual([200, { id: first.body.id, kind: 'photo', duplicate: true }])
    expect(await rowsOf(clientKey)).toHaveLength(1)

    // The token the lost answer carried was replaced: only the one the phone holds removes it.
    expect((await undo(first.body.id, first.body.undoToken)).status).toBe(403)
    expect((await undo(first.body.id, again.body.undoToken)).status).toBe(200)
  })

  it('two inits of one file at the same moment (page and service worker) make one upload', async () => {
    const bytes = await distinctJpeg()
    const clientKey = randomUUID()
    const answers = await Promise.all([1, 2, 3].map(() => init({ size: bytes.length, author: 'Vó Nina', clientKey })))
    expect(answers.map(answer => answer.status).sort()).toEqual([200, 200, 201])
    expect(answers.find(answer => answer.status === 201)!.body.upload.type).toBe('single')
    expect(new Set(answers.map(answer => answer.body.id)).size).toBe(1)
    expect(await rowsOf(clientKey)).toHaveLength(1)
  })

  it('a video sent in parts keeps its multipart upload: the parts go to the same one and join', async () => {
    const bytes = Buffer.alloc(52 * 1024 * 1024, 7)
    bytes.write('\u0000\u0000\u0000\u0018ftypmp42', 0, 'latin1')
    const clientKey = randomUUID()
    const first = await init({ fileName: 'VID.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 3, clientKey })
    expect([first.status, first.body.upload.type]).toEqual([201, 'multipart'])
    const again = await init({ fileName: 'VID.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 3, clientKey })
    expect([again.status, again.body.id, again.body.upload.type, again.body.upload.parts.length]).toEqual([200, first.body.id, 'multipart', 6])
    await sendParts(again.body, bytes)
    const rows = (await server.db.execute({ sql: 'SELECT multipart_upload_id FROM uploads WHERE client_key = ?', args: [clientKey] })).rows
    expect(rows).toHaveLength(1)
    expect(rows[0]!.multipart_upload_id).toBeTruthy()
  })

  it('refuses a key given to another file, and a key of the wrong shape, with INVALID_REQUEST', async () => {
    const bytes = await distinctJpeg()
    const clientKey = randomUUID()
    expect((await init({ size: bytes.length, clientKey })).status).toBe(201)
    const other = await init({ size: bytes.length + 1, clientKey })
    expect([other.status, other.body.data?.code, other.body.data?.issues?.[0]?.path]).toEqual([400, 'INVALID_REQUEST', ['clientKey']])
    for (const bad of ['short', 'x'.repeat(65), 'has spaces in it here', 42]) {
      const response = await init({ size: bytes.length, clientKey: bad })
      expect([response.status, response.body.data?.code], String(bad)).toEqual([400, 'INVALID_REQUEST'])
    }
    expect(await rowsOf(clientKey)).toHaveLength(1)
  })
})
