import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, derivationSettled, distinctJpeg } from '../support/seed'
import { uploadFile } from '../support/uploads'

// docs/api.md, "Text fields": a name is one line wherever it is sent; a message keeps its lines.
describe('an author\'s name is stored on one line', () => {
  const server = useTestServer({ admin: true, db: true })
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })

  it('an upload: line breaks in the name at init, in the guest\'s edit and in the admin\'s edit become one space', async () => {
    const bytes = await distinctJpeg()
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, author: 'Ana\r\nMaria\n', message: 'Linha 1\nLinha 2' })
    expect(confirm.status).toBe(200)
    const record = await adminRecord(server.url, server.cookie, init.id)
    expect([record.body.author, record.body.message]).toEqual(['Ana Maria', 'Linha 1\nLinha 2'])
    // A photo is listed once its public images exist.
    await derivationSettled(server.url)
    expect((await api(server.url, '/api/gallery?limit=100')).body.items.find((item: { id: string }) => item.id === init.id))
      .toMatchObject({ author: 'Ana Maria', message: 'Linha 1\nLinha 2' })

    const edited = await api(server.url, `/api/uploads/${init.id}`, { method: 'PATCH', json: { author: 'Tia\u2028Lúcia\u2029 e Zé' }, headers: { 'x-undo-token': init.undoToken } })
    expect([edited.status, edited.body.author]).toEqual([200, 'Tia Lúcia e Zé'])
    const renamed = await admin(`/api/admin/uploads/${init.id}`, { method: 'PATCH', json: { author: '\nTio\u0085Zé\n' } })
    expect([renamed.status, renamed.body.author]).toEqual([200, 'Tio Zé'])
    const row = (await server.db.execute({ sql: 'SELECT author FROM uploads WHERE id = ?', args: [init.id] })).rows[0]!
    expect(row.author).toBe('Tio Zé')
  })

  it('a written message: the name folded, the text keeps its lines; still 400 INVALID_REQUEST for a tab or a name too long once folded', async () => {
    const sent = await api(server.url, '/api/guestbook', { method: 'POST', json: { author: 'Vó\n\nNena', text: 'Parabéns!\nSejam felizes' } })
    expect(sent.status).toBe(201)
    const item = (await admin('/api/admin/guestbook?limit=200')).body.items.find((entry: { id: string }) => entry.id === sent.body.id)
    expect([item.author, item.text]).toEqual(['Vó Nena', 'Parabéns!\nSejam felizes'])
    const renamed = await admin(`/api/admin/guestbook/${sent.body.id}`, { method: 'PATCH', json: { author: 'Vó\r\nNena Silva' } })
    expect([renamed.status, renamed.body.author]).toEqual([200, 'Vó Nena Silva'])

    for (const author of ['Vó\tNena', `${'a'.repeat(41)}\n${'b'.repeat(40)}`]) {
      const refused = await api(server.url, '/api/guestbook', { method: 'POST', json: { author, text: 'Oi' } })
      expect([refused.status, refused.body.data.code], JSON.stringify(author)).toEqual([400, 'INVALID_REQUEST'])
      expect(refused.body.data.issues[0].path).toEqual(['author'])
    }
  })
})
