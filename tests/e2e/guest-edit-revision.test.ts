import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { distinctJpeg } from '../support/seed'
import { uploadFile } from '../support/uploads'

/**
 * The device's edits of an upload's words carry a revision: on a slow network an older edit can
 * arrive after a newer one (a reloaded page cannot call back what it sent), and must not undo it.
 * Words only, no media read or served: one driver.
 */

const edit = (base: string, id: string, token: string, json: unknown) =>
  api(base, `/api/uploads/${id}`, { method: 'PATCH', json, headers: { 'x-undo-token': token } })

describe('the sending device\'s edits are ordered by their revision', () => {
  const server = useTestServer({ db: true, env: { UNDO_WINDOW_SECONDS: '120' } })

  const stored = async (id: string) =>
    (await server.db.execute({ sql: 'SELECT author, message, search_text, words_revision FROM uploads WHERE id = ?', args: [id] })).rows[0]!

  async function initPhoto() {
    const bytes = await distinctJpeg()
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length, author: 'Ti', message: '' } })
    expect(init.status).toBe(201)
    return init.body as { id: string, undoToken: string }
  }

  it('an edit that arrives after a newer one changes nothing and answers the newer words (before confirm)', async () => {
    const init = await initPhoto()
    const newer = await edit(server.url, init.id, init.undoToken, { author: 'Tía Lucía', message: '¡Felicidades!', revision: 1_790_000_000_200 })
    expect([newer.status, newer.body]).toEqual([200, { id: init.id, status: 'pending', author: 'Tía Lucía', message: '¡Felicidades!' }])
    const older = await edit(server.url, init.id, init.undoToken, { author: 'Tía', message: '', revision: 1_790_000_000_100 })
    expect([older.status, older.body]).toEqual([200, { id: init.id, status: 'pending', author: 'Tía Lucía', message: '¡Felicidades!' }])
    // The same revision again is no newer either.
    const again = await edit(server.url, init.id, init.undoToken, { author: 'Otra', revision: 1_790_000_000_200 })
    expect(again.body).toEqual({ id: init.id, status: 'pending', author: 'Tía Lucía', message: '¡Felicidades!' })
    expect(await stored(init.id)).toMatchObject({ author: 'Tía Lucía', message: '¡Felicidades!', words_revision: 1_790_000_000_200 })
  })

  it('the same words sent with a newer revision keep out an older edit still on its way (after confirm)', async () => {
    const bytes = await distinctJpeg()
    const { init } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, author: 'Ana', message: 'Oi' })
    // The page typed "Ana B" (revision 5) and back to "Ana" (revision 9): the second arrives first.
    const latest = await edit(server.url, init.id, init.undoToken, { author: 'Ana', message: 'Oi', revision: 9 })
    expect(latest.body).toEqual({ id: init.id, status: 'approved', author: 'Ana', message: 'Oi' })
    expect(await stored(init.id)).toMatchObject({ words_revision: 9 })
    const late = await edit(server.url, init.id, init.undoToken, { author: 'Ana B', message: 'Oi', revision: 5 })
    expect([late.status, late.body]).toEqual([200, { id: init.id, status: 'approved', author: 'Ana', message: 'Oi' }])
    expect(await stored(init.id)).toMatchObject({ author: 'Ana', message: 'Oi', words_revision: 9 })
  })

  it('an edit without a revision applies as it comes and keeps the stored revision; a revision that is no positive integer is 400', async () => {
    const init = await initPhoto()
    expect((await edit(server.url, init.id, init.undoToken, { author: 'Bia', revision: 3 })).status).toBe(200)
    const plain = await edit(server.url, init.id, init.undoToken, { author: 'Bia Souza' })
    expect(plain.body).toEqual({ id: init.id, status: 'pending', author: 'Bia Souza', message: '' })
    expect(await stored(init.id)).toMatchObject({ author: 'Bia Souza', words_revision: 3 })
    expect(String((await stored(init.id)).search_text)).toContain('souza')
    for (const revision of [0, -1, 1.5, '7', 2 ** 53]) {
      const response = await edit(server.url, init.id, init.undoToken, { author: 'X', revision })
      expect([response.status, response.body.data.code], String(revision)).toEqual([400, 'INVALID_REQUEST'])
    }
    expect(await stored(init.id)).toMatchObject({ author: 'Bia Souza', words_revision: 3 })
  })
})
