import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { lavfi, makeMedia, tone } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { adminRecord, derivationSettled, distinctJpeg, setModeration } from '../support/seed'
import { uploadFile } from '../support/uploads'

// The couple's decisions stand over the sending device's edit of its words (docs/api.md,
// `PATCH /api/uploads/:id`): approved words are not replaced unseen under pre-moderation, and
// words an admin wrote are locked.

const dir = mkdtempSync(join(tmpdir(), 'guest-edit-moderation-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A real 2 s Opus recording, as a phone's recorder makes one (ffmpeg). */
function voiceMessage(): Buffer {
  return makeMedia(join(dir, `voice-${Date.now()}-${Math.random()}.webm`), lavfi(tone(2)), ['-c:a', 'libopus'])
}

interface Item { id: string, author: string, message: string }

// Edits and verdicts change the database, never stored bytes: one driver (the local disk). Storing
// and serving the bytes is proven on both drivers by uploads.test.ts and guestbook-audio.test.ts.
describe('a guest\'s edit and the couple\'s moderation', () => {
  const server = useTestServer({ admin: true, db: true, env: { UNDO_WINDOW_SECONDS: '600' } })
  let screenKey: string
  beforeAll(async () => {
    screenKey = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body.screenKey
  })

  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })
  const edit = (id: string, token: string, json: unknown) =>
    api(server.url, `/api/uploads/${id}`, { method: 'PATCH', json, headers: { 'x-undo-token': token } })
  const stored = async (id: string) =>
    (await server.db.execute({ sql: 'SELECT status, author, message, words_locked FROM uploads WHERE id = ?', args: [id] })).rows[0]!
  const gallery = (etag?: string) => api(server.url, '/api/gallery?limit=100', { headers: etag ? { 'if-none-match': etag } : {} })
  const screen = () => api(server.url, `/api/gallery?limit=100&screenKey=${screenKey}`)
  const listed = (body: { items: Item[] }, id: string) => body.items.find(item => item.id === id)

  /** A confirmed photo, approved by the couple when `approve`, in the gallery once its images exist. */
  async function photo(fields: { author: string, message: string }, approve: boolean) {
    const bytes = await distinctJpeg()
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, ...fields })
    expect(confirm.status).toBe(200)
    if (approve) expect((await admin(`/api/admin/uploads/${init.id}/approve`, { method: 'POST' })).status).toBe(200)
    await derivationSettled(server.url)
    return { id: init.id as string, token: init.undoToken as string }
  }

  it('pre-moderation: new words on an approved photo send it back to pending, out of the gallery, the screen and the counts at once; approved again, it shows them', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const { id, token } = await photo({ author: 'Ana', message: 'Felicidades' }, true)
    const before = await gallery()
    expect(listed(before.body, id)).toMatchObject({ author: 'Ana', message: 'Felicidades' })
    // Answered once more from the server's kept answer, and shown on the screen.
    expect(listed((await gallery()).body, id)).toBeDefined()
    expect(listed((await screen()).body, id)).toBeDefined()
    const countsBefore = (await api(server.url, '/api/stats')).body

    const response = await edit(id, token, { message: 'Outra mensagem' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id, status: 'pending', author: 'Ana', message: 'Outra mensagem' })
    expect(await stored(id)).toMatchObject({ status: 'pending', author: 'Ana', message: 'Outra mensagem', words_locked: 0 })

    const after = await gallery(before.headers.get('etag')!)
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(listed(after.body, id)).toBeUndefined()
    expect(listed((await gallery()).body, id)).toBeUndefined()
    expect(listed((await screen()).body, id)).toBeUndefined()
    expect((await api(server.url, '/api/stats')).body).toEqual({ ...countsBefore, approved: countsBefore.approved - 1, photos: countsBefore.photos - 1 })
    const record = await adminRecord(server.url, server.cookie, id)
    expect([record.body.status, record.body.author, record.body.message]).toEqual(['pending', 'Ana', 'Outra mensagem'])

    expect((await admin(`/api/admin/uploads/${id}/approve`, { method: 'POST' })).status).toBe(200)
    expect(listed((await gallery()).body, id)).toMatchObject({ author: 'Ana', message: 'Outra mensagem' })
    expect(listed((await screen()).body, id)).toMatchObject({ author: 'Ana', message: 'Outra mensagem' })
  })

  it('pre-moderation: an edit that changes nothing leaves the status, the gallery and its tag alone', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const { id, token } = await photo({ author: 'Bia', message: 'Oi' }, true)
    const before = await gallery()
    for (const body of [{}, { author: 'Bia' }, { author: '  Bia  ', message: 'Oi' }]) {
      const response = await edit(id, token, body)
      expect([response.status, response.body], JSON.stringify(body)).toEqual([200, { id, status: 'approved', author: 'Bia', message: 'Oi' }])
    }
    expect(await stored(id)).toMatchObject({ status: 'approved', author: 'Bia', message: 'Oi' })
    expect((await gallery(before.headers.get('etag')!)).status).toBe(304)
  })

  it('pre-moderation: a rejected upload stays rejected and a pending one pending, with their new words', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const rejected = await photo({ author: 'Caio', message: 'x' }, false)
    expect((await admin(`/api/admin/uploads/${rejected.id}/reject`, { method: 'POST' })).status).toBe(200)
    const editedRejected = await edit(rejected.id, rejected.token, { message: 'Me aprovem' })
    expect([editedRejected.status, editedRejected.body]).toEqual([200, { id: rejected.id, status: 'rejected', author: 'Caio', message: 'Me aprovem' }])
    expect(await stored(rejected.id)).toMatchObject({ status: 'rejected', message: 'Me aprovem' })

    const pending = await photo({ author: 'Duda', message: '' }, false)
    const editedPending = await edit(pending.id, pending.token, { author: 'Duda S.' })
    expect([editedPending.status, editedPending.body]).toEqual([200, { id: pending.id, status: 'pending', author: 'Duda S.', message: '' }])
    expect(listed((await gallery()).body, pending.id)).toBeUndefined()
  })

  it('post-moderation: the upload stays live and the gallery shows the new words at once', async () => {
    await setModeration(server.url, server.cookie, 'post')
    const { id, token } = await photo({ author: 'Edu', message: 'Antes' }, false)
    const before = await gallery()
    expect(listed(before.body, id)).toMatchObject({ message: 'Antes' })
    const response = await edit(id, token, { message: 'Depois' })
    expect([response.status, response.body]).toEqual([200, { id, status: 'approved', author: 'Edu', message: 'Depois' }])
    const after = await gallery(before.headers.get('etag')!)
    expect(after.status).toBe(200)
    expect(listed(after.body, id)).toMatchObject({ author: 'Edu', message: 'Depois' })
    expect(listed((await screen()).body, id)).toMatchObject({ message: 'Depois' })
  })

  it('once an admin changed the words, every guest edit is 409 WORDS_LOCKED with the words held, and changes nothing', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const { id, token } = await photo({ author: 'Fabi', message: 'Texto do convidado' }, true)
    const adminEdit = await admin(`/api/admin/uploads/${id}`, { method: 'PATCH', json: { author: 'Fabiana' } })
    expect(adminEdit.status).toBe(200)
    expect(await stored(id)).toMatchObject({ status: 'approved', author: 'Fabiana', words_locked: 1 })
    const before = await gallery()

    for (const body of [{ author: 'Fabi' }, { message: 'Outro' }, { author: 'Fabiana' }, {}]) {
      const response = await edit(id, token, body)
      expect([response.status, response.body.data], JSON.stringify(body)).toEqual([409, { code: 'WORDS_LOCKED', author: 'Fabiana', message: 'Texto do convidado' }])
    }
    expect(await stored(id)).toMatchObject({ status: 'approved', author: 'Fabiana', message: 'Texto do convidado', words_locked: 1 })
    expect((await gallery(before.headers.get('etag')!)).status).toBe(304)
    // Without the token the upload tells nothing, locked or not.
    const stranger = await edit(id, 'not-the-token', { message: 'x' })
    expect([stranger.status, stranger.body.data]).toEqual([403, { code: 'UNDO_TOKEN_INVALID' }])
    // The admin's message edit locks as well.
    const other = await photo({ author: 'Gil', message: 'Oi' }, true)
    expect((await admin(`/api/admin/uploads/${other.id}`, { method: 'PATCH', json: { message: 'Olá' } })).status).toBe(200)
    const locked = await edit(other.id, other.token, { author: 'Gilberto' })
    expect([locked.status, locked.body.data.code]).toEqual([409, 'WORDS_LOCKED'])
    expect(await stored(other.id)).toMatchObject({ author: 'Gil', message: 'Olá' })
  })

  it('the admin\'s other changes lock nothing: approve, reject, bulk, the cover, and an edit that changes nothing', async () => {
    await setModeration(server.url, server.cookie, 'post')
    const { id, token } = await photo({ author: 'Hugo', message: 'Um' }, false)
    expect((await admin(`/api/admin/uploads/${id}`, { method: 'PATCH', json: { author: 'Hugo', message: '  Um ' } })).status).toBe(200)
    expect((await admin(`/api/admin/uploads/${id}/reject`, { method: 'POST' })).status).toBe(200)
    expect((await admin('/api/admin/uploads/bulk', { method: 'POST', json: { ids: [id], action: 'approve' } })).status).toBe(200)
    expect((await admin(`/api/admin/uploads/${id}/cover`, { method: 'POST' })).status).toBe(200)
    expect(await stored(id)).toMatchObject({ status: 'approved', words_locked: 0 })
    const response = await edit(id, token, { message: 'Dois' })
    expect([response.status, response.body]).toEqual([200, { id, status: 'approved', author: 'Hugo', message: 'Dois' }])
  })

  it('a spoken message follows the same rules: back to pending under pre-moderation, locked once the admin renamed it in the guestbook', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const send = async (author: string) => {
      const bytes = voiceMessage()
      const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'audio/webm', size: bytes.length, durationSec: 2, author, message: '', fileName: 'recado.webm' })
      expect([confirm.status, confirm.body.status]).toEqual([200, 'pending'])
      expect((await admin(`/api/admin/guestbook/${init.id}`, { method: 'PATCH', json: { status: 'approved' } })).status).toBe(200)
      return { id: init.id as string, token: init.undoToken as string }
    }
    const book = async () => (await api(server.url, '/api/guestbook?limit=100')).body.items.map((item: Item) => item.id)

    const approvedOnly = await send('Tio Zé')
    expect(await book()).toContain(approvedOnly.id)
    const renamedByGuest = await edit(approvedOnly.id, approvedOnly.token, { author: 'Tio Zé e Tia Lu' })
    expect([renamedByGuest.status, renamedByGuest.body]).toEqual([200, { id: approvedOnly.id, status: 'pending', author: 'Tio Zé e Tia Lu', message: '' }])
    expect(await book()).not.toContain(approvedOnly.id)

    const renamedByCouple = await send('Vó')
    expect((await admin(`/api/admin/guestbook/${renamedByCouple.id}`, { method: 'PATCH', json: { author: 'Vó Nena' } })).status).toBe(200)
    const locked = await edit(renamedByCouple.id, renamedByCouple.token, { author: 'Vovó' })
    expect([locked.status, locked.body.data]).toEqual([409, { code: 'WORDS_LOCKED', author: 'Vó Nena', message: '' }])
    expect(await stored(renamedByCouple.id)).toMatchObject({ status: 'approved', author: 'Vó Nena', words_locked: 1 })
    expect(await book()).toContain(renamedByCouple.id)
  })
})
