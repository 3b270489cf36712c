import { request } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, waitForDerived, type Seeded } from '../support/seed'

/** A GET with a Host header of our choosing (fetch would not send it). */
function getOn(port: number, host: string, path: string, cookie = ''): Promise<{ status: number, body: any }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host, cookie } }, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => {
        text += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }))
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

// The admin list and the gallery's pages are answered from memory until what they show changes
// (their tag): these prove that no change is ever hidden by it, and that what is kept is never
// another origin's.
describe('answers kept in memory: the admin list and the gallery', () => {
  const server = useTestServer({ admin: true })
  let older: Seeded
  let newer: Seeded

  const list = (query = '') => api(server.url, `/api/admin/uploads${query}`, { cookie: server.cookie })
  const item = (response: { body: any }, id: string) => response.body.items.find((entry: any) => entry.id === id)

  beforeAll(async () => {
    older = await seedPhoto(server.url, { author: 'Ana', message: 'Felicidades' })
    newer = await seedPhoto(server.url, { author: 'Bruno', message: 'Que festa' })
    await waitForDerived(server.url, server.cookie, older.id)
    await waitForDerived(server.url, server.cookie, newer.id)
  }, 60_000)

  it('shows an edit, a decision and a new cover at the very next request', async () => {
    const before = await list('?q=felicidades')
    expect(before.status).toBe(200)
    expect(before.body.items.map((entry: any) => entry.id)).toEqual([older.id])
    expect(item(await list(), older.id)).toMatchObject({ author: 'Ana', status: 'approved', isCover: false })

    expect((await api(server.url, `/api/admin/uploads/${older.id}`, { method: 'PATCH', json: { author: 'Ana Lúcia' }, cookie: server.cookie })).status).toBe(200)
    const edited = await list()
    expect(item(edited, older.id)).toMatchObject({ author: 'Ana Lúcia' })
    expect(edited.headers.get('etag')).not.toBe(before.headers.get('etag'))

    expect((await api(server.url, `/api/admin/uploads/${older.id}/cover`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    expect(item(await list(), older.id)).toMatchObject({ isCover: true })

    expect((await api(server.url, `/api/admin/uploads/${older.id}/reject`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    expect(item(await list(), older.id)).toMatchObject({ status: 'rejected', isCover: false })
    expect((await list('?status=approved')).body.items.map((entry: any) => entry.id)).toEqual([newer.id])

    // The search follows the edit too: the old text no longer finds it, the new one does.
    expect((await list('?q=felicidades')).body.items.map((entry: any) => entry.id)).toEqual([older.id])
    expect((await list('?q=ana')).body.items.map((entry: any) => entry.id)).toEqual([older.id])
    expect((await api(server.url, `/api/admin/uploads/${older.id}`, { method: 'PATCH', json: { message: 'Parabéns' }, cookie: server.cookie })).status).toBe(200)
    expect((await list('?q=felicidades')).body.items).toEqual([])
    expect((await list('?q=felicidades')).body.total).toBe(0)
  })

  it('keeps each origin\'s list apart: media URLs name the host the list was asked on', async () => {
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const response = await getOn(server.port, host, '/api/admin/uploads', server.cookie)
      expect(response.status).toBe(200)
      expect(response.body.items.length).toBe(2)
      for (const entry of response.body.items) {
        for (const url of [entry.url, entry.thumbUrl, entry.originalUrl]) expect(url.startsWith(`http://${host}/media/`), url).toBe(true)
      }
    }
  })

  it('keeps each origin\'s gallery page apart: media URLs name the host the page was asked on', async () => {
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const response = await getOn(server.port, host, '/api/gallery')
      expect(response.status).toBe(200)
      expect(response.body.items.map((entry: any) => entry.id)).toEqual([newer.id])
      for (const url of [response.body.items[0].url, response.body.items[0].thumbUrl]) expect(url.startsWith(`http://${host}/media/`), url).toBe(true)
    }
  })
})
