import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'

// docs/api.md, "Requests": an unknown query parameter is a bad request, never silently ignored.
describe('public endpoints refuse query parameters they do not take', () => {
  const server = useTestServer({ admin: true })

  it.each([
    '/api/event?v=2',
    '/api/event?screenKey=x',
    '/api/health?verbose=1',
    '/api/stats?limit=10',
    '/api/stats?screenKey=a&screenKey=b',
    '/manifest.webmanifest?tela=2',
    '/manifest.webmanifest?lang=en',
  ])('%s is 400 INVALID_REQUEST with the issue', async (path) => {
    const response = await api(server.url, path)
    expect([response.status, response.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(response.body.data.issues.length).toBeGreaterThan(0)
  })

  it('without a query, or with only what they take, they answer', async () => {
    const { screenKey } = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body
    for (const path of ['/api/event', '/api/health', '/api/stats', `/api/stats?screenKey=${screenKey}`, '/api/stats?screenKey=wrong', '/manifest.webmanifest?tela=1']) {
      expect((await api(server.url, path)).status, path).toBe(200)
    }
  })

  it('the event\'s tag is not a way around the check: a matching If-None-Match with a stray parameter is still 400', async () => {
    const first = await api(server.url, '/api/event')
    const etag = first.headers.get('etag')!
    expect((await api(server.url, '/api/event', { headers: { 'if-none-match': etag } })).status).toBe(304)
    const stray = await api(server.url, '/api/event?x=1', { headers: { 'if-none-match': etag } })
    expect([stray.status, stray.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
  })
})
