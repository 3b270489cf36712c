import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { GalleryPage } from '#shared/schemas/gallery'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, type GuestUpload } from '../support/guests'
import { photo, tempDir } from '../support/media'
import { DESKTOP, until } from './support/browser'
import { useBrowser } from './support/fixture'
import { launchPersistentChromium } from '../support/chromium'

/**
 * The venue kiosk offline, in Chromium with the network really cut by the test: the
 * server stays up, nothing is mocked, the service worker is the built one (.output/public/sw.js).
 * The cut is `context.setOffline`, which Playwright applies to the worker's target as well as the
 * page's. CDP's Network.emulateNetworkConditions sent on the page's session alone is not enough:
 * the worker's own fetches still reach the server (the page reloads server-rendered, with no
 * offline notice), so it would test nothing here.
 */
describe('the venue kiosk works offline', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let photos: GuestUpload[] = []

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    for (let n = 1; n <= 3; n++) photos.push(await guestUpload(server.url, server.cookie, n, { author: `Convidado ${n}` }))
    photos = photos.reverse()
  }, 120_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  /** What the page logged that must never happen: hydration mismatches, CSP refusals, uncaught errors. */
  function watchConsole(page: Page): string[] {
    const problems: string[] = []
    page.on('console', (message) => {
      const text = message.text()
      if (/hydrat|content security policy|refused to/i.test(text)) problems.push(`${message.type()}: ${text}`)
    })
    page.on('pageerror', error => problems.push(`pageerror: ${error.message}`))
    return problems
  }

  /** The page is controlled by the worker, which has finished installing (its precache and first answers). */
  async function controlled(page: Page) {
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
  }

  const cachedUrls = (page: Page, cacheName: string) => page.evaluate(async (name) => {
    const cache = await caches.open(name)
    return (await cache.keys()).map(request => request.url)
  }, cacheName)

  async function cachedGalleryIds(page: Page): Promise<string[]> {
    return page.evaluate(async () => {
      const cache = await caches.open('public-answers')
      const ids: string[] = []
      for (const request of await cache.keys()) {
        if (!new URL(request.url).pathname.startsWith('/api/gallery')) continue
        const answer = await (await cache.match(request))!.json() as { items: { id: string }[] }
        ids.push(...answer.items.map(item => item.id))
      }
      return ids
    })
  }

  async function publicGallery(): Promise<GalleryPage> {
    const response = await api<GalleryPage>(server.url, '/api/gallery?limit=100')
    expect(response.status).toBe(200)
    return response.body
  }

  /** The slideshow's photo on screen has really been drawn (not a broken image). */
  const slideShown = (page: Page) => page.evaluate(() => {
    const show = document.querySelector('[data-testid=slideshow]')
    const id = show?.getAttribute('data-id')
    const drawn = [...(show?.querySelectorAll('img') ?? [])].some(img => !img.src.includes('/api/qrcode') && img.complete && img.naturalWidth > 0)
    return id && drawn ? id : null
  })

  it('Chromium finds the app installable from /, with the manifest linked in the server-rendered head', async () => {
    const html = await (await fetch(`${server.url}/`)).text()
    expect(html).toMatch(/<link rel="manifest" href="\/manifest.webmanifest"[^>]*>/)
    const manifest = await fetch(`${server.url}/manifest.webmanifest`)
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8')
    // The API's `default-src 'none'; sandbox` reaches neither the manifest nor the worker's script.
    expect(manifest.headers.get('content-security-policy')).toBeNull()
    const body = await manifest.json() as Record<string, unknown>
    expect(body).toMatchObject({ short_name: 'Ana & Bruno', start_url: '/', display: 'standalone' })
    const worker = await fetch(`${server.url}/sw.js`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(worker.headers.get('content-security-policy')).toBeNull()

    // Chromium never offers to install from an incognito profile (what newContext makes): a
    // profile on disk, as a venue laptop has.
    const installable = await launchPersistentChromium(tempDir(), {
      baseURL: server.url,
      viewport: DESKTOP,
    })
    try {
      const page = installable.pages()[0] ?? await installable.newPage()
      await page.goto('/')
      await controlled(page)
      const cdp = await installable.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])
      // The manifest Chromium read is the event's.
      const { url, errors } = await cdp.send('Page.getAppManifest')
      expect(url).toBe(`${server.url}/manifest.webmanifest`)
      expect(errors).toEqual([])
    }
    finally {
      await installable.close()
    }
  }, 60_000)

  it('the projector reloaded offline shows the photos it had within 15 s, with the notice, and new approvals once back', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    const problems = watchConsole(page)
    await page.goto('/galeria?slideshow=1&segundos=2')
    await controlled(page)
    // Every photo has been on screen once, through the worker: their display images are kept.
    const seen = new Set<string>()
    await until(async () => {
      const id = await slideShown(page)
      if (id) seen.add(id)
      return seen.size === photos.length
    }, 40_000, 'every photo shown once')

    await context.setOffline(true)
    const cut = Date.now()
    await page.reload()
    const shown = await until(() => slideShown(page), 15_000, 'a photo shown offline')
    expect(Date.now() - cut).toBeLessThan(15_000)
    expect(photos.map(item => item.id)).toContain(shown)
    await page.locator('.slideshow__offline').waitFor({ timeout: 5_000 })
    expect(await page.locator('.slideshow__offline').textContent()).toContain('Sem conexão')
    // It keeps looping what it has.
    const next = new Set<string>([shown])
    await until(async () => {
      const id = await slideShown(page)
      if (id) next.add(id)
      return next.size >= 2
    }, 15_000, 'a second photo offline')

    await context.setOffline(false)
    const fresh = await guestUpload(server.url, server.cookie, 4, { author: 'Recém-chegada' })
    expect(fresh.status).toBe('approved')
    await until(async () => (await slideShown(page)) === fresh.id, 30_000, 'the new approval on screen')
    await until(async () => (await page.locator('.slideshow__offline').count()) === 0, 10_000, 'the notice gone')
    expect(problems).toEqual([])
  }, 150_000)

  it('a photo rejected or deleted is evicted from every cache at the next poll', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1&segundos=2')
    await controlled(page)
    const items = (await publicGallery()).items
    const gone = items.find(item => item.kind === 'photo')!
    await until(async () => (await cachedUrls(page, 'gallery-media')).includes(gone.url), 40_000, 'its display image kept')
    expect(await cachedGalleryIds(page)).toContain(gone.id)

    const rejected = await api(server.url, `/api/admin/uploads/${gone.id}/reject`, { method: 'POST', cookie: server.cookie })
    expect(rejected.status).toBe(200)
    await until(async () => !(await cachedGalleryIds(page)).includes(gone.id), 30_000, 'the answers without it')
    // The worker evicts right after it stored the new answer (cacheDidUpdate): a moment later, not
    // in the same instant the answer can be read.
    const evicted = (media: string[]) => !media.includes(gone.url) && !(gone.thumbUrl && media.includes(gone.thumbUrl))
    await until(async () => evicted(await cachedUrls(page, 'gallery-media')), 5_000, 'its images evicted')
    // And the screen never shows it again, even offline.
    await context.setOffline(true)
    await page.reload()
    await until(() => slideShown(page), 15_000, 'a photo shown offline')
    for (let i = 0; i < 8; i++) {
      expect(await page.getAttribute('[data-testid=slideshow]', 'data-id')).not.toBe(gone.id)
      await page.waitForTimeout(500)
    }
    await context.setOffline(false)
  }, 120_000)

  it('a guest opens /enviar offline: the page and its queue show, a file sent waits saved, and goes when the network returns', async () => {
    context = await pages.context('phone')
    const page = await context.newPage()
    const problems = watchConsole(page)
    const before = (await publicGallery()).items.length
    await page.goto('/enviar')
    await controlled(page)

    await context.setOffline(true)
    await page.reload()
    await page.locator('main[data-ready]').waitFor({ timeout: 15_000 })
    const file = await photo(tempDir(), 'IMG_OFFLINE.jpg', 'offline', 200)
    await page.setInputFiles('input[type=file]', [file])
    const row = page.locator('[data-testid=upload-item]')
    await until(async () => (await row.count()) === 1, 15_000, 'the row')
    await until(async () => ['paused', 'queued'].includes((await row.getAttribute('data-state'))!), 10_000, 'waiting')
    await page.waitForTimeout(1500)
    expect(['paused', 'queued']).toContain(await row.getAttribute('data-state'))

    // Saved: a reload while still offline lists it again.
    await page.reload()
    await until(async () => (await row.count()) === 1, 15_000, 'the row after an offline reload')

    await context.setOffline(false)
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
    // Post-moderation: it is in the gallery as soon as its display image is made.
    await until(async () => (await publicGallery()).items.length === before + 1, 20_000, 'the photo in the gallery')
    expect(problems).toEqual([])
  }, 120_000)

  it('/galeria reloaded offline shows what it showed, with a notice', async () => {
    context = await pages.context('phone')
    const page = await context.newPage()
    const problems = watchConsole(page)
    await page.goto('/galeria')
    await controlled(page)
    const tiles = page.locator('[data-testid=gallery-item]')
    const online = await tiles.evaluateAll(nodes => nodes.map(node => node.getAttribute('data-id')))
    expect(online.length).toBeGreaterThan(0)
    // A second visit, through the worker: its thumbnails are kept.
    await page.reload()
    await until(async () => (await tiles.count()) === online.length, 15_000, 'tiles')

    await context.setOffline(true)
    await page.reload()
    await until(async () => (await tiles.count()) === online.length, 15_000, 'the tiles offline')
    expect(await tiles.evaluateAll(nodes => nodes.map(node => node.getAttribute('data-id')))).toEqual(online)
    await page.locator('[data-testid=gallery-offline]').waitFor({ timeout: 10_000 })
    const drawn = await page.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid=gallery-item] img')].filter(img => img.complete && img.naturalWidth > 0).length)
    expect(drawn).toBeGreaterThan(0)
    await context.setOffline(false)
    expect(problems).toEqual([])
  }, 90_000)

  it('the admin stays online-only: its pages and answers never enter a cache, and it does not open offline', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    // The worker installs from a guest page first, as on a phone that scanned the QR code.
    await page.goto('/')
    await controlled(page)
    await page.goto('/admin/login')
    await loginThroughForm(page)
    await page.waitForURL(/\/admin$/)
    // The moderation list (pending first: empty under post-moderation) and its counts have come.
    await page.locator('[data-testid=admin-uploads]').waitFor({ state: 'attached', timeout: 20_000 })
    await page.waitForLoadState('networkidle')
    const kept = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map(request => request.url))
      return urls
    })
    expect(kept.length).toBeGreaterThan(0)
    // (The build's files are precached whole, the admin's scripts and styles among them: code, not
    // the admin's pages or data.) No original either: those are signed, private grants.
    expect(kept.filter(url => /^\/(?:admin|api\/admin)(?:\/|$)/.test(new URL(url).pathname))).toEqual([])
    expect(kept.filter(url => new URL(url).pathname.startsWith('/media/orig/'))).toEqual([])

    await context.setOffline(true)
    await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/)
    await context.setOffline(false)
  }, 90_000)
})
