import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { GalleryPage } from '#shared/schemas/gallery'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload } from '../support/guests'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * A phone that saw the gallery must not keep showing it once the gallery shuts this browser out:
 * the built worker forgets the gallery's answers and images when `/api/gallery` answers 403
 * (closed) or 401 (a PIN this browser has not typed), and keeps the cover, which `/api/event`
 * shows everyone. Nothing is mocked: the built worker in Chromium, the real server.
 */
describe('the service worker forgets a gallery that shuts this browser out', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let coverId = ''

  const patchEvent = async (json: Record<string, unknown>) => {
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json, cookie: server.cookie })
    expect(response.status).toBe(200)
  }

  beforeAll(async () => {
    await patchEvent({ moderation: 'post', coupleNames: 'Ana & Bruno' })
    for (let n = 1; n <= 3; n++) await guestUpload(server.url, server.cookie, n, { author: `Convidado ${n}` })
    coverId = (await api<GalleryPage>(server.url, '/api/gallery?limit=24')).body.items.at(-1)!.id
    expect((await api(server.url, `/api/admin/uploads/${coverId}/cover`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
  }, 120_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  const mediaKept = (page: Page) => page.evaluate(async () => (await (await caches.open('gallery-media')).keys()).map(request => request.url))
  const answersKept = (page: Page) => page.evaluate(async () => (await (await caches.open('public-answers')).keys()).map(request => new URL(request.url).pathname + new URL(request.url).search))
  const galleryStatus = (page: Page) => page.evaluate(async () => (await fetch('/api/gallery?limit=24')).status)

  /** The gallery seen in this browser: its first page kept, and every item's thumbnail with it. */
  async function seeGallery(page: Page): Promise<string[]> {
    await page.goto('/galeria')
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
    // Controlled now: the reload's requests go through the worker.
    await page.reload()
    const items = (await api<GalleryPage>(server.url, '/api/gallery?limit=24')).body.items
    expect(items).toHaveLength(3)
    const thumbs = items.map(item => new URL(item.thumbUrl!, server.url).href)
    await until(async () => {
      const kept = await mediaKept(page)
      return thumbs.every(url => kept.includes(url))
    }, 20_000, 'every thumbnail kept')
    expect(await answersKept(page)).toContain('/api/gallery?limit=24')
    expect(await answersKept(page)).toContain('/api/event')
    return items.map(item => item.id)
  }

  async function coverAddresses(): Promise<string[]> {
    const { cover } = (await api<any>(server.url, '/api/event')).body
    expect(cover.id).toBe(coverId)
    return [cover.url, cover.thumbUrl, cover.thumb2xUrl].filter(Boolean).map((url: string) => new URL(url, server.url).href)
  }

  /** After the refusal: no gallery answer, and of the images only the cover's that were kept. */
  async function expectForgotten(page: Page, keptBefore: string[]) {
    const cover = await coverAddresses()
    expect(keptBefore.filter(url => !cover.includes(url)).length).toBeGreaterThan(0)
    const kept = await mediaKept(page)
    expect(kept.sort()).toEqual(keptBefore.filter(url => cover.includes(url)).sort())
    expect(kept.length).toBeGreaterThan(0)
    const answers = await answersKept(page)
    expect(answers.filter(address => address.startsWith('/api/gallery'))).toEqual([])
    expect(answers).toContain('/api/event')
  }

  it('drops the kept gallery answers and images when the gallery closes (403), the cover\'s images stay', async () => {
    await patchEvent({ galleryMode: 'live', galleryPin: null })
    context = await pages.context('desktop')
    const page = await context.newPage()
    await seeGallery(page)
    const keptBefore = await mediaKept(page)
    await patchEvent({ galleryMode: 'upload-only' })
    expect(await galleryStatus(page)).toBe(403)
    await expectForgotten(page, keptBefore)
  }, 120_000)

  it('drops them when a PIN this browser has not typed guards the gallery (401)', async () => {
    await patchEvent({ galleryMode: 'live', galleryPin: null })
    context = await pages.context('desktop')
    const page = await context.newPage()
    await seeGallery(page)
    const keptBefore = await mediaKept(page)
    await patchEvent({ galleryPin: '4821' })
    expect(await galleryStatus(page)).toBe(401)
    await expectForgotten(page, keptBefore)
  }, 120_000)

  it('keeps them while the gallery answers 200', async () => {
    await patchEvent({ galleryMode: 'live', galleryPin: null })
    context = await pages.context('desktop')
    const page = await context.newPage()
    await seeGallery(page)
    const keptBefore = await mediaKept(page)
    expect(await galleryStatus(page)).toBe(200)
    expect((await mediaKept(page)).sort()).toEqual(keptBefore.sort())
    expect(await answersKept(page)).toContain('/api/gallery?limit=24')
  }, 120_000)
})
