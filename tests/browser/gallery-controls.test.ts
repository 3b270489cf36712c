import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedGallery, type GuestUpload } from '../support/guests'
import { photo, tempDir } from '../support/media'
import { screenshot, until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The couple's controls as guests and the venue screen meet them, against the real server: a
 * closed gallery and its countdown, the PIN's keypad, a download from the viewer, /enviar under a
 * limit with "sent from this phone", and the projector opened with its key in upload-only.
 */
describe('gallery modes, PIN, downloads, limit and screen key (real server)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let items: GuestUpload[]

  const setEvent = async (patch: Record<string, unknown>) => {
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body
  }

  async function open(path: string, kind: 'phone' | 'desktop' = 'phone'): Promise<Page> {
    context ??= kind === 'phone' ? await pages.context('phone') : await pages.context('desktop')
    const page = await context.newPage()
    await page.goto(path)
    return page
  }

  const tiles = (page: Page) => page.locator('[data-testid=gallery-item]')

  beforeAll(async () => {
    await setEvent({ coupleNames: 'Ana & Bruno', moderation: 'post', galleryMode: 'live' })
    items = await seedGallery(server.url, server.cookie, 3)
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
    await setEvent({ galleryMode: 'live', revealAt: null, galleryPin: null, guestDownloads: false, maxUploadsPerGuest: null })
  })

  it('a reveal tomorrow at 10h: home and /galeria say so with a countdown, and list nothing', async () => {
    const tomorrow = new Date()
    tomorrow.setDate(tomorrow.getDate() + 1)
    tomorrow.setHours(10, 0, 0, 0)
    const revealAt = tomorrow.toISOString()
    await setEvent({ galleryMode: 'reveal', revealAt })

    for (const path of ['/', '/galeria']) {
      const page = await open(path)
      const closed = page.locator('[data-testid=gallery-closed]')
      await closed.waitFor()
      expect(await closed.getAttribute('data-reveal-at')).toBe(revealAt)
      await until(async () => (await closed.textContent())?.includes('As fotos serão reveladas amanhã às 10h'), 10_000, 'the reveal moment')
      const first = await page.locator('[data-testid=gallery-countdown]').textContent()
      expect(first).toMatch(/^Faltam \d+ h \d\d min$|^Faltam \d+ d \d+ h$/)
      expect(await tiles(page).count()).toBe(0)
      await screenshot(page, `gallery-closed-reveal${path === '/' ? '-home' : ''}`)
      await page.close()
    }

    // Upload-only: closed, with no moment to count down to; the home page still leads to /enviar.
    await setEvent({ galleryMode: 'upload-only' })
    const page = await open('/')
    const closed = page.locator('[data-testid=gallery-closed]')
    await closed.waitFor()
    expect(await closed.getAttribute('data-reveal-at')).toBeNull()
    expect(await page.locator('a[href="/enviar"]').count()).toBeGreaterThan(0)
    expect(await page.locator('a[href="/galeria"]').count()).toBe(0)
  })

  it('a reveal a few seconds away opens /galeria by itself', async () => {
    await setEvent({ galleryMode: 'reveal', revealAt: new Date(Date.now() + 4000).toISOString() })
    const page = await open('/galeria')
    await page.locator('[data-testid=gallery-closed] [data-testid=gallery-countdown]').waitFor()
    await until(async () => (await tiles(page).count()) === items.length, 20_000, 'the revealed gallery')
    expect(await page.locator('[data-testid=gallery-closed]').count()).toBe(0)
  })

  it('a PIN: /galeria asks for it on a numeric keypad, refuses a wrong one, opens with the right one, and home then leads on', async () => {
    await setEvent({ galleryPin: '2468' })
    const page = await open('/galeria')
    const pin = page.locator('[data-testid=gallery-pin]')
    await pin.waitFor()
    expect(await pin.getAttribute('inputmode')).toBe('numeric')
    expect(await tiles(page).count()).toBe(0)

    await pin.fill('1357')
    await page.locator('[data-testid=gallery-pin-submit]').click()
    await until(async () => (await page.locator('[role=alert]').textContent())?.includes('PIN incorreto'), 10_000, 'the wrong PIN message')
    await screenshot(page, 'gallery-pin-wrong')

    await pin.fill('2468')
    await page.locator('[data-testid=gallery-pin-submit]').click()
    await until(async () => (await tiles(page).count()) === items.length, 15_000, 'the unlocked gallery')

    // The cookie stays: a reload shows the gallery at once, and the home page asks nothing.
    await page.reload()
    await until(async () => (await tiles(page).count()) === items.length, 15_000, 'the gallery after a reload')
    const home = await open('/')
    await home.locator('main').waitFor()
    await home.waitForTimeout(500)
    expect(await home.locator('[data-testid=gallery-pin]').count()).toBe(0)

    // Another browser is asked on the home page, and lands on the gallery once it gives the PIN.
    await context!.close()
    context = undefined
    const stranger = await open('/')
    const homePin = stranger.locator('[data-testid=gallery-pin]')
    await homePin.waitFor()
    await homePin.fill('2468')
    await stranger.locator('[data-testid=gallery-pin-submit]').click()
    await stranger.waitForURL('**/galeria')
    await until(async () => (await tiles(stranger).count()) === items.length, 15_000, 'the gallery from home')
  })

  it('downloads on: the viewer\'s download button saves the display image under the couple\'s and the author\'s names', async () => {
    await setEvent({ guestDownloads: true })
    const page = await open('/galeria', 'desktop')
    const target = items.find(item => item.kind === 'photo' && item.author)!
    await page.locator(`[data-testid=gallery-item][data-id="${target.id}"]`).click()
    const button = page.locator('[data-testid=viewer] [data-testid=download]')
    await button.waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
    const author = target.author.toLowerCase().replace(/[^a-z0-9]+/g, '-')
    expect(download.suggestedFilename()).toBe(`ana-bruno_${author}_${target.id}.jpg`)
    // The one Chromium is shared over a connection: the file is copied out, never read in place.
    const savedPath = join(tempDir(), download.suggestedFilename())
    await download.saveAs(savedPath)
    const saved = readFileSync(savedPath)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((one: any) => one.id === target.id)
    expect(saved.equals(Buffer.from(await (await fetch(item.url)).arrayBuffer()))).toBe(true)
    expect(saved.includes(Buffer.from('Exif'))).toBe(false)

    // Off again: no button.
    await setEvent({ guestDownloads: false })
    await page.reload()
    await page.locator(`[data-testid=gallery-item][data-id="${target.id}"]`).click()
    await page.locator('[data-testid=viewer]').waitFor()
    expect(await page.locator('[data-testid=download]').count()).toBe(0)
  })

  it('/enviar under a limit of 2: "0 de 2 fotos", a third file refused before sending, and "sent from this phone" with Remover', async () => {
    await setEvent({ maxUploadsPerGuest: 2 })
    const dir = tempDir()
    const files = await Promise.all([1, 2, 3].map(n => photo(dir, `IMG_10${n}.jpg`, `Limite ${n}`, 40 * n)))
    const page = await open('/enviar')
    await page.locator('main[data-ready]').waitFor()
    const limit = page.locator('[data-testid=guest-limit]')
    await until(async () => (await limit.textContent())?.trim() === '0 de 2 fotos', 10_000, 'the limit line')

    // Picked files go at once (no send button): the first two, while the third is refused in
    // words, once the two have been checked and queued.
    await page.setInputFiles('input[type=file]', files)
    const refusals = page.locator('[data-testid=upload-refusal]')
    await until(async () => (await refusals.count()) === 1, 15_000, 'the third file refused')
    expect(await refusals.getAttribute('data-name')).toBe('IMG_103.jpg')
    expect(await refusals.textContent()).toContain('Cada convidado pode enviar até 2 fotos')
    expect(await page.locator('[data-testid=upload-item]').evaluateAll(rows => rows.map(row => row.getAttribute('data-name')))).toEqual(['IMG_101.jpg', 'IMG_102.jpg'])

    const mine = page.locator('[data-testid=my-upload]')
    await until(async () => (await mine.count()) === 2, 30_000, 'two uploads of this phone')
    await until(async () => (await limit.textContent())?.includes('Você já enviou suas 2 fotos'), 10_000, 'the limit reached')
    expect(await mine.evaluateAll(els => els.map(el => el.getAttribute('data-status')))).toEqual(['approved', 'approved'])
    await screenshot(page, 'upload-limit-mine', true)

    // Each file listed once: the server's entry sits in the file's row, whose "Remover" asks first.
    expect(await page.locator('[data-testid=upload-item] [data-testid=my-upload]').count()).toBe(2)
    const first = mine.first()
    const id = await first.getAttribute('data-id')
    page.once('dialog', dialog => void dialog.accept())
    await page.locator('[data-testid=upload-item]').first().locator('[data-testid=upload-remove]').click()
    await until(async () => (await mine.count()) === 1, 15_000, 'the removed upload gone')
    expect(await mine.first().getAttribute('data-id')).not.toBe(id)
    await until(async () => (await limit.textContent())?.trim() === '1 de 2 fotos', 10_000, 'a place given back')
  })

  it('the projector with its key shows photos in upload-only; without it, none', async () => {
    const { screenKey } = await setEvent({ galleryMode: 'upload-only' })
    const page = await open(`/galeria?slideshow=1&chave=${screenKey}`, 'desktop')
    const show = page.locator('[data-testid=slideshow]')
    const shownId = await until(async () => show.getAttribute('data-id'), 20_000, 'a slide on screen')
    const screenItems = (await api(server.url, `/api/gallery?limit=100&screenKey=${screenKey}`)).body.items
    expect(screenItems.map((item: { id: string }) => item.id)).toContain(shownId)
    await screenshot(page, 'slideshow-screen-key-upload-only')

    const without = await open('/galeria?slideshow=1', 'desktop')
    await without.locator('[data-testid=slideshow]').waitFor()
    await without.waitForTimeout(2000)
    expect(await without.locator('[data-testid=slideshow]').getAttribute('data-id')).toBeNull()
  })
})
