import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, seedGallery } from '../support/guests'
import { until } from './support/browser'
import { startProxy, type TestProxy } from './support/proxy'
import { useBrowser } from './support/fixture'

/**
 * /galeria's poll through Chromium's own HTTP cache: the page asks page 1 again every
 * 10 s with a plain fetch; the browser keeps the `no-cache` answer and revalidates it with
 * If-None-Match, so while nothing changes the server answers 304 with no body, and the page still
 * shows a new approval at the next poll. A recording proxy between the browser and the real
 * server shows what the server was sent and what it answered.
 */
describe('gallery polling revalidates through the browser cache', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let proxy: TestProxy

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    await seedGallery(server.url, server.cookie, 3)
    proxy = await startProxy(server.url)
  }, 60_000)

  afterAll(async () => {
    await proxy?.stop()
  })

  it('gets 304s while nothing changes and still shows a new approval', async () => {
    context = await pages.context('phone', { baseURL: proxy.url })
    const page = await context.newPage()
    await page.goto('/galeria')
    const tiles = page.locator('[data-testid=gallery-item]')
    await until(async () => (await tiles.count()) === 3, 15_000, 'three tiles')

    const polls = () => proxy.seen.filter(entry => entry.method === 'GET' && entry.path === '/api/gallery')
    // Two polls of page 1 (10 s apart) revalidated and answered 304 with nothing changed.
    await until(() => polls().filter(entry => entry.status === 304).length >= 2, 30_000, 'two 304 polls')
    for (const entry of polls().filter(entry => entry.status === 304)) expect(entry.ifNoneMatch).toMatch(/^W\/".+"$/)
    expect(await tiles.count()).toBe(3)

    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'pre' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    const fresh = await guestUpload(server.url, server.cookie, 4, { author: 'Recém-chegada' })
    expect(fresh.status).toBe('pending')
    const before = polls().length
    expect((await api(server.url, `/api/admin/uploads/${fresh.id}/approve`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    await until(async () => (await tiles.first().getAttribute('data-id')) === fresh.id, 15_000, 'the approved upload on top')
    expect(await tiles.count()).toBe(4)
    // The poll that brought it was a revalidation the server answered in full.
    const brought = polls().slice(before).find(entry => entry.status === 200)
    expect(brought?.ifNoneMatch).toMatch(/^W\/".+"$/)
  }, 120_000)
})
