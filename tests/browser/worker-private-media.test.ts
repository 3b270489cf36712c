import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { GalleryPage } from '#shared/schemas/gallery'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload } from '../support/guests'
import { putBytes } from '../support/uploads'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The service worker and an admin's private originals, on the S3 driver (a real s3rver on another
 * origin than the app, as a bucket is): an admin page shows a photo libvips cannot decode as a
 * signed URL of its `orig/` key, and the browser's referrer for it is cut to the app's origin, so
 * only the address itself can tell the worker not to keep it. Nothing is mocked: the built worker.
 */
describe('the service worker never keeps an admin\'s private originals (S3)', () => {
  const server = useTestServer({ s3: true, admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let heicId = ''

  beforeAll(async () => {
    const post = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    expect(post.status).toBe(200)
    await guestUpload(server.url, server.cookie, 1, { author: 'Convidada' })
    // Pending from now on: the HEIC shows in the admin's default list.
    const pre = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'pre' }, cookie: server.cookie })
    expect(pre.status).toBe(200)
    // A real HEIC (64 × 48) that the prebuilt libvips cannot decode: no public image, ever.
    const heic = readFileSync(resolve(import.meta.dirname, '../fixtures/small-64x48.heic'))
    const init = await api<any>(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'IMG.HEIC', contentType: 'image/heic', size: heic.length } })
    expect(init.status).toBe(201)
    expect((await putBytes(init.body.upload.url, heic, init.body.upload.headers)).status).toBe(200)
    heicId = init.body.id
    expect((await api(server.url, `/api/uploads/${heicId}/confirm`, { method: 'POST', json: {} })).status).toBe(200)
  }, 120_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  async function controlled(page: Page) {
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
  }

  const mediaKept = (page: Page) => page.evaluate(async () => (await (await caches.open('gallery-media')).keys()).map(request => request.url))

  it('keeps the gallery\'s public images from the bucket, never the signed orig/ thumbnail an admin page shows; logout leaves only what the gallery lists', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    // The worker installs from a guest page, as on the venue laptop that also runs the screen.
    await page.goto('/galeria')
    await controlled(page)
    const gallery = (await api<GalleryPage>(server.url, '/api/gallery?limit=24')).body
    expect(gallery.items).toHaveLength(1)
    const listed = gallery.items[0]!
    expect(new URL(listed.thumbUrl!).origin).toBe(new URL(server.s3.env.S3_ENDPOINT!).origin)
    await page.reload()
    await until(async () => (await mediaKept(page)).includes(listed.thumbUrl!), 15_000, 'the public thumbnail kept')

    await page.goto('/admin/login')
    await loginThroughForm(page)
    await page.waitForURL(/\/admin$/)
    const tile = page.locator(`[data-id="${heicId}"] img`).first()
    await tile.waitFor({ state: 'attached', timeout: 20_000 })
    const signed = (await tile.getAttribute('src'))!
    expect(signed).toContain('/orig/')
    expect(signed).toContain('X-Amz-Signature=')
    // The browser asked for it (through the worker): the image has loaded, or failed to decode.
    await until(() => tile.evaluate((img: HTMLImageElement) => img.complete), 15_000, 'the orig thumbnail fetched')
    await page.waitForLoadState('networkidle')

    const kept = await mediaKept(page)
    expect(kept.filter(url => url.includes('/orig/'))).toEqual([])
    expect(kept.filter(url => /x-amz-|[?&]sig=/i.test(url))).toEqual([])
    expect(kept).toContain(listed.thumbUrl)

    // Whatever an admin page left (here: an unlisted item's public image, put there by hand, as a
    // worker of an earlier version might have) leaves at logout; the gallery's own stays.
    const unlisted = listed.thumbUrl!.replace(/media\/[\w-]{20}-/, 'media/AAAAAAAAAAAAAAAAAAAA-')
    expect(unlisted).not.toBe(listed.thumbUrl)
    await page.evaluate(async (url) => {
      await (await caches.open('gallery-media')).put(url, new Response('x', { headers: { 'content-type': 'image/webp' } }))
    }, unlisted)
    expect(await mediaKept(page)).toContain(unlisted)
    await page.click('[data-testid=logout]')
    await page.waitForURL(/\/admin\/login/)
    await until(async () => !(await mediaKept(page)).includes(unlisted), 10_000, 'the unlisted image forgotten')
    expect(await mediaKept(page)).toContain(listed.thumbUrl)
  }, 120_000)
})
