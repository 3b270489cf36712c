import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { GalleryPage } from '#shared/schemas/gallery'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload } from '../support/guests'
import { until } from './support/browser'
import { startProxy, type TestProxy } from './support/proxy'
import { useBrowser } from './support/fixture'

const PHOTOS = 6

/**
 * The venue screen when the network hangs instead of failing (a cloud deployment whose uplink
 * died behind a working Wi-Fi, a captive portal): a proxy between Chromium and the real server
 * accepts every connection and request and never answers. Nothing is mocked: the built service
 * worker, the real server behind the proxy. The screen must keep looping the photos it saved ahead
 * of their turn, say it is offline, and come back from a reload into the offline shell.
 */
describe('the projector under a network that hangs', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let proxy: TestProxy
  let context: BrowserContext | undefined
  let photos: string[] = []

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    for (let n = 1; n <= PHOTOS; n++) photos.push((await guestUpload(server.url, server.cookie, n, { author: `Convidado ${n}` })).id)
    photos = photos.reverse()
    proxy = await startProxy(server.url)
  }, 120_000)

  afterEach(async () => {
    proxy.hang(false)
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    await proxy?.stop()
  })

  async function controlled(page: Page) {
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
  }

  const show = (page: Page) => page.locator('[data-testid=slideshow]')

  /** The photo on screen (fully shown, drawn), and whether any shown slide is a broken image. */
  const onScreen = (page: Page) => page.evaluate(() => {
    const root = document.querySelector('[data-testid=slideshow]')
    const shown = [...(root?.querySelectorAll<HTMLImageElement>('.slideshow-slide--ready img.slideshow-slide__media') ?? [])]
    const broken = shown.some(img => img.complete && img.naturalWidth === 0)
    const id = root?.getAttribute('data-id') ?? null
    const drawn = shown.some(img => img.complete && img.naturalWidth > 0)
    return { id: drawn ? id : null, broken }
  })

  it('saves the whole rotation ahead of its turn, not only what it has shown', async () => {
    context = await pages.context('desktop', { baseURL: proxy.url })
    const page = await context.newPage()
    // A minute per photo: in the time this takes, one photo shows.
    await page.goto('/galeria?slideshow=1&segundos=60')
    await controlled(page)
    await until(async () => Number(await show(page).getAttribute('data-cached')) === PHOTOS, 40_000, 'every photo saved')
    expect(await show(page).getAttribute('data-offline')).toBe('false')
    const gallery = await api<GalleryPage>(server.url, '/api/gallery?limit=100')
    // (Asked of the server directly, its addresses name the server; the page's name the proxy.)
    const kept = await page.evaluate(async () => (await (await caches.open('gallery-media')).keys()).map(request => new URL(request.url).pathname))
    for (const item of gallery.body.items) expect(kept).toContain(new URL(item.url).pathname)
  }, 90_000)

  it('keeps rotating through its saved photos while every request hangs, and a reload opens the offline shell with a photo', async () => {
    context = await pages.context('desktop', { baseURL: proxy.url })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', error => errors.push(error.message))
    await page.goto('/galeria?slideshow=1&segundos=2')
    await controlled(page)
    await until(async () => Number(await show(page).getAttribute('data-cached')) === PHOTOS, 40_000, 'every photo saved')
    await until(async () => (await onScreen(page)).id, 15_000, 'a photo on screen')

    proxy.hang(true)
    const hungFrom = proxy.seen.length
    const start = Date.now()
    const seen = new Set<string>()
    let offlineAfter: number | null = null
    let brokenSeen = 0
    while (Date.now() - start < 60_000) {
      const state = await onScreen(page)
      if (state.id) seen.add(state.id)
      if (state.broken) brokenSeen++
      if (offlineAfter === null && (await show(page).getAttribute('data-offline')) === 'true') offlineAfter = Date.now() - start
      await page.waitForTimeout(250)
    }
    // The polls went on, each hanging: every one of them reached the proxy and got no answer.
    const during = proxy.seen.slice(hungFrom)
    expect(during.filter(entry => entry.path === '/api/gallery').length).toBeGreaterThanOrEqual(3)
    expect(during.every(entry => entry.injected)).toBe(true)
    // A poll with no answer is offline: within the poll's period and its time limit.
    expect(offlineAfter).not.toBeNull()
    expect(offlineAfter!).toBeLessThan(20_000)
    expect(seen.size).toBeGreaterThanOrEqual(3)
    for (const id of seen) expect(photos).toContain(id)
    expect(brokenSeen).toBe(0)

    // A reload while everything hangs: the navigation gets no answer and the worker opens its shell.
    const reloadAt = Date.now()
    await page.reload({ waitUntil: 'commit', timeout: 20_000 })
    const shown = await until(async () => (await onScreen(page)).id, 20_000 - (Date.now() - reloadAt), 'a photo after the reload')
    expect(Date.now() - reloadAt).toBeLessThan(20_000)
    expect(photos).toContain(shown)
    expect(await show(page).getAttribute('data-offline')).toBe('true')
    const afterReload = new Set([shown])
    await until(async () => {
      const state = await onScreen(page)
      expect(state.broken).toBe(false)
      if (state.id) afterReload.add(state.id)
      return afterReload.size >= 2
    }, 20_000, 'a second photo after the reload')

    // The network answers again: the screen says so at its next poll.
    proxy.hang(false)
    await until(async () => (await show(page).getAttribute('data-offline')) === 'false', 30_000, 'online again')
    expect(errors).toEqual([])
  }, 240_000)
})
