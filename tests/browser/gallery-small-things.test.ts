import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, type GuestUpload } from '../support/guests'
import { expectAccessible } from './support/axe'
import { PHONE } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The gallery's small things, on a phone against the real server: the video viewer's own play,
 * pause and seek bar; the tab title before the couple is named; the photos and the messages as
 * two tabs of one navigation; the English way home.
 */
describe('the gallery\'s viewer, title and navigation on a phone', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let video: GuestUpload

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    await guestUpload(server.url, server.cookie, 2, { author: 'Primo Caio', derived: true })
    video = await guestUpload(server.url, server.cookie, 7, { kind: 'video', author: 'Tia Lúcia' })
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  async function open(path: string, locale = 'pt-BR'): Promise<Page> {
    context = locale === 'pt-BR' ? await pages.context('phone') : await pages.context('phone', { deviceScaleFactor: 1, locale })
    const page = await context.newPage()
    await page.goto(path)
    return page
  }

  const currentTime = (page: Page) => page.locator('[data-testid=viewer] video').evaluate(el => (el as HTMLVideoElement).currentTime)
  const paused = (page: Page) => page.locator('[data-testid=viewer] video').evaluate(el => (el as HTMLVideoElement).paused)

  it('the video viewer has a play/pause button and a seek bar that move the real clip, with names a screen reader reads', async () => {
    const page = await open('/galeria')
    await page.locator(`[data-testid=gallery-item][data-id="${video.id}"]`).click()
    const player = page.locator('[data-testid=viewer] video')
    await player.waitFor()
    await page.waitForFunction(() => ((document.querySelector('[data-testid=viewer] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, undefined, { timeout: 15_000 })

    const play = page.locator('[data-testid=viewer-play]')
    const seek = page.locator('[data-testid=viewer-seek]')
    expect(await play.getAttribute('aria-label')).toBe('Pausar')
    expect(await seek.getAttribute('type')).toBe('range')
    expect(await seek.getAttribute('aria-label')).toBe('Posição no vídeo')
    expect(Number(await seek.getAttribute('max'))).toBeCloseTo(2, 0)
    expect(await seek.getAttribute('aria-valuetext')).toMatch(/^0:0\d de 0:02$/)
    for (const control of [play, seek]) {
      const box = (await control.boundingBox())!
      expect(box.height).toBeGreaterThanOrEqual(44)
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height)
    }

    await play.click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=viewer] video') as HTMLVideoElement).paused)
    expect(await play.getAttribute('aria-label')).toBe('Reproduzir')
    const stopped = await currentTime(page)
    await page.waitForTimeout(500)
    expect(await currentTime(page)).toBe(stopped)

    // The seek bar moves the clip (paused, it stays where it was put).
    await seek.evaluate((input: HTMLInputElement) => {
      input.value = '1.5'
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await page.waitForFunction(() => Math.abs((document.querySelector('[data-testid=viewer] video') as HTMLVideoElement).currentTime - 1.5) < 0.05)
    expect(await seek.getAttribute('aria-valuetext')).toBe('0:02 de 0:02')
    expect(await paused(page)).toBe(true)
    // The keyboard moves it too, and does not leave for the next photo.
    await seek.focus()
    await page.keyboard.press('ArrowLeft')
    expect(await page.getAttribute('[data-testid=viewer]', 'data-id')).toBe(video.id)
    expect(await currentTime(page)).toBeLessThan(1.5)

    await play.click()
    await page.waitForFunction(() => !(document.querySelector('[data-testid=viewer] video') as HTMLVideoElement).paused)
    expect(await play.getAttribute('aria-label')).toBe('Pausar')
    await expectAccessible(page, 'the video viewer with its controls')
  })

  it('before the couple is named, the home\'s tab title says the site\'s name once', async () => {
    const page = await open('/')
    expect(await page.title()).toBe('Fotos do casamento')
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    await page.reload()
    expect(await page.title()).toBe('Ana & Bruno · Fotos do casamento')
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: '' }, cookie: server.cookie })
  })

  it('the photos and the messages are two tabs of one navigation, the current one marked', async () => {
    const page = await open('/galeria')
    const nav = page.locator('[data-testid=gallery-views]')
    await nav.waitFor()
    expect(await nav.evaluate(el => el.tagName)).toBe('NAV')
    const photos = nav.locator('[data-testid=gallery-view-photos]')
    const messages = nav.locator('[data-testid=guestbook-view-link]')
    expect(await photos.getAttribute('aria-current')).toBe('page')
    expect(await messages.getAttribute('aria-current')).toBeNull()
    // Peers: the same size and look, finger-sized, not a small underlined link.
    const [a, b] = [(await photos.boundingBox())!, (await messages.boundingBox())!]
    expect(Math.abs(a.y - b.y)).toBeLessThanOrEqual(1)
    expect(a.height).toBeGreaterThanOrEqual(44)
    expect(b.height).toBe(a.height)
    expect(await messages.evaluate(el => getComputedStyle(el).textDecorationLine)).toBe('none')
    // Above the heading, as the gallery's own navigation.
    expect(b.y).toBeLessThan((await page.locator('h1').boundingBox())!.y)

    await messages.click()
    await page.waitForURL(url => url.searchParams.get('ver') === 'recados')
    const after = page.locator('[data-testid=gallery-views]')
    await page.waitForFunction(() => document.querySelector('[data-testid=guestbook-view-link]')?.getAttribute('aria-current') === 'page')
    expect(await after.locator('[data-testid=gallery-view-photos]').getAttribute('aria-current')).toBeNull()
    expect(await page.locator('h1').textContent()).toContain('Recados')
    await expectAccessible(page, '/galeria?ver=recados with its views')
  })

  it('in English the way home reads "Back to home"', async () => {
    const page = await open('/enviar', 'en-US')
    const back = page.locator('a[href="/"]').first()
    expect((await back.textContent())!.trim()).toBe('Back to home')
  })
})
