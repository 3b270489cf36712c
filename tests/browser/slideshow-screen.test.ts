import type { BrowserContext, Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { decodeQr } from '../support/qr'
import { useTestServer } from '../support/suite/test-server'
import { guestUpload, type GuestUpload } from '../support/guests'
import { DESKTOP, screenshot, skipSlideHold, until } from './support/browser'
import { expectAccessible } from './support/axe'
import { useBrowser } from './support/fixture'

interface Box { x: number, y: number, width: number, height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The computed font size of an element, in CSS pixels (the screen is 1920×1080 at scale 1). */
const fontPx = (locator: Locator) => locator.evaluate(el => Number.parseFloat(getComputedStyle(el).fontSize))

/** The mean red, green and blue of a region of a screenshot (0–255). */
async function meanColour(png: Buffer): Promise<number[]> {
  const { channels } = await sharp(png).removeAlpha().stats()
  return channels.map(channel => channel.mean)
}

const LONG_MESSAGE = `${'Que a vida de vocês seja leve, cheia de risadas e de viagens. '.repeat(15)}Fim.`

/**
 * The venue screen read from the back of the hall, measured on a 1920×1080 page against the real
 * server, with real uploads: a portrait photo (1080×1350), a 16:9 one with a very long message,
 * and the "send your photos" card every N slides (N = 3 here, by the address, to keep it short).
 * Nothing is stubbed.
 */
describe('the slideshow on a 1080p projector', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  /** Oldest first: a 16:9 photo with a long message, then a portrait one with short words. */
  let wide: GuestUpload
  let portrait: GuestUpload
  let square: GuestUpload

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', moderation: 'post' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    // guestUpload's shapes by n % 4: 2 → 1200×1200, 3 → 1920×1080, 5 → 1080×1350.
    square = await guestUpload(server.url, server.cookie, 2, { author: 'Primo Caio' })
    wide = await guestUpload(server.url, server.cookie, 3, { author: 'Dona Conceição Aparecida', message: LONG_MESSAGE })
    portrait = await guestUpload(server.url, server.cookie, 5, { author: 'Tia Lúcia', message: 'Felicidades ao casal!' })
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  const onScreen = (page: Page) => page.getAttribute('[data-testid=slideshow]', 'data-id')
  /** The slide on screen (the last one faded in). */
  const shownSlide = (page: Page) => page.locator('.slideshow-slide--ready').last()

  /** The screen on its own clock: its timers run at real speed until a test moves them on. */
  async function openSlideshow(query: string): Promise<Page> {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.clock.install()
    await page.goto(`/galeria?slideshow=1&${query}`)
    return page
  }

  it('corner QR code ≥ 18 % of the height with a ≥ 28 px caption; words ≥ 40 / 32 px on a dark panel; a portrait photo over its own blurred copy', async () => {
    const page = await openSlideshow('segundos=30&convite=0')
    await until(async () => (await onScreen(page)) === portrait.id, 20_000, 'the portrait photo first (newest)')
    await page.waitForFunction(() => (document.querySelector('.slideshow__qr img') as HTMLImageElement | null)?.naturalWidth)
    // Past the crossfade and the caption's fade.
    await page.waitForTimeout(1400)
    await screenshot(page, 'slideshow-1080p-portrait')

    // The corner code: measured on screen, and readable by a phone from the screenshot.
    const code = (await page.locator('.slideshow__qr img').boundingBox())!
    expect(code.height / DESKTOP.height, JSON.stringify(code)).toBeGreaterThanOrEqual(0.18)
    expect(await fontPx(page.locator('.slideshow__qr p'))).toBeGreaterThanOrEqual(28)
    expect(await decodeQr(await page.locator('.slideshow__qr img').screenshot())).toBe(`${server.url}/enviar`)
    const qrBox = (await page.locator('.slideshow__qr').boundingBox())!
    expect(qrBox.x + qrBox.width).toBeLessThanOrEqual(DESKTOP.width)
    expect(qrBox.y + qrBox.height).toBeLessThanOrEqual(DESKTOP.height)

    // Author and message: large, on a panel dark enough for white text over any photo.
    expect(await page.textContent('.slideshow__author')).toBe('Tia Lúcia')
    expect(await page.textContent('.slideshow__message')).toBe('Felicidades ao casal!')
    expect(await fontPx(page.locator('.slideshow__author'))).toBeGreaterThanOrEqual(40)
    expect(await fontPx(page.locator('.slideshow__message'))).toBeGreaterThanOrEqual(32)
    const panel = await page.locator('.slideshow__caption').evaluate((el) => {
      const [r, g, b, a = 1] = getComputedStyle(el).backgroundColor.match(/[\d.]+/g)!.map(Number)
      return { r, g, b, a, color: getComputedStyle(el).color }
    })
    expect(Math.max(panel.r!, panel.g!, panel.b!)).toBeLessThanOrEqual(20)
    expect(panel.a).toBeGreaterThanOrEqual(0.65)
    expect(panel.color).toBe('rgb(255, 255, 255)')
    const caption = (await page.locator('.slideshow__caption').boundingBox())!
    expect(overlap(caption, qrBox), `caption ${JSON.stringify(caption)} under the QR code ${JSON.stringify(qrBox)}`).toBe(false)

    // The portrait photo: its blurred, darkened copy (the same picture) fills the sides.
    const slide = shownSlide(page)
    const photo = slide.locator('img.slideshow-slide__media')
    const backdrop = slide.locator('[data-testid=slideshow-backdrop]')
    expect(await backdrop.count()).toBe(1)
    expect(await backdrop.getAttribute('src')).toBe(await photo.getAttribute('src'))
    expect(await backdrop.evaluate(el => getComputedStyle(el).filter)).toMatch(/blur\(\d+px\) brightness\(0\.\d+\)/)
    expect(await backdrop.getAttribute('aria-hidden')).toBe('true')
    // Where black bars used to be (the left fifth of the screen, above the caption), the colours
    // of the photo, dimmed: not black, and darker than the photo itself.
    const side = await meanColour(await page.screenshot({ clip: { x: 0, y: 100, width: 300, height: 500 } }))
    const middle = await meanColour(await page.screenshot({ clip: { x: 860, y: 100, width: 200, height: 500 } }))
    expect(Math.max(...side), `side ${side}`).toBeGreaterThan(12)
    expect(Math.max(...side), `side ${side} vs middle ${middle}`).toBeLessThan(Math.max(...middle))
    await expectAccessible(page, 'the slideshow at 1080p, a portrait photo')
  })

  it('a long message is shown whole, smaller, in the lower half, and a photo of the screen\'s own shape gets no backdrop', async () => {
    const page = await openSlideshow('segundos=12&convite=0')
    await until(async () => {
      const id = await onScreen(page)
      if (id === portrait.id) await skipSlideHold(page, 2000)
      return id === wide.id
    }, 40_000, 'the 16:9 photo with the long message')
    await until(async () => (await page.locator('.slideshow__caption').count()) === 1, 5000, 'one caption')
    await page.waitForTimeout(1300)
    await screenshot(page, 'slideshow-1080p-long-message')
    const message = page.locator('.slideshow__message')
    expect(await message.textContent()).toBe(LONG_MESSAGE)
    const size = await message.evaluate((el) => {
      const style = getComputedStyle(el)
      return { client: el.clientHeight, scroll: el.scrollHeight, clamp: style.webkitLineClamp }
    })
    // Whole: nothing beyond the box (the slide is held until it is read: tests/unit/slideshow-hold.test.ts).
    expect(size.clamp).toBe('none')
    expect(size.scroll).toBeLessThanOrEqual(size.client + 1)
    // Read from the back of the hall still: about 28 px on this screen.
    expect(await fontPx(message)).toBeGreaterThanOrEqual(26)
    // The panel stays on screen and clear of the QR code, however long the message.
    const caption = (await page.locator('.slideshow__caption').boundingBox())!
    const qrBox = (await page.locator('.slideshow__qr').boundingBox())!
    expect(caption.y).toBeGreaterThan(DESKTOP.height / 2)
    expect(caption.y + caption.height).toBeLessThanOrEqual(DESKTOP.height)
    expect(overlap(caption, qrBox)).toBe(false)
    // 1920×1080 on a 1920×1080 screen: nothing to fill.
    expect(await shownSlide(page).locator('[data-testid=slideshow-backdrop]').count()).toBe(0)
  })

  it('every N slides (convite=3) a full-screen "Envie suas fotos" card: code ≥ 60 % of the height, the names and the short address, then the photos again', async () => {
    const page = await openSlideshow('segundos=2&convite=3')
    const shown: string[] = []
    // The 16:9 photo's long message (934 characters) holds it until read: about 64 s, of which 56 s
    // pass at once. Not all of it: a skip that ran past the hold's end would also skip the next slide.
    let skipped = 0
    await until(async () => {
      const id = await onScreen(page)
      if (id && id !== shown.at(-1)) shown.push(id)
      if (id === wide.id && skipped < 56_000 && await skipSlideHold(page, 4000)) skipped += 4000
      return page.locator('[data-testid=slideshow-invite]').count()
    }, 90_000, 'the card')
    const cardAt = Date.now()
    // Three slides, newest first, then the card.
    expect(shown).toEqual([portrait.id, wide.id, square.id])
    const card = page.locator('[data-testid=slideshow-invite]')
    await page.waitForFunction(() => (document.querySelector('[data-testid=slideshow-invite] img') as HTMLImageElement | null)?.naturalWidth)
    // Past the card's fade in.
    await page.waitForTimeout(900)
    await screenshot(page, 'slideshow-1080p-invite')

    const cardBox = (await card.boundingBox())!
    expect(cardBox).toEqual({ x: 0, y: 0, width: DESKTOP.width, height: DESKTOP.height })
    const code = (await card.locator('img').boundingBox())!
    expect(code.height / DESKTOP.height, JSON.stringify(code)).toBeGreaterThanOrEqual(0.6)
    expect(code.y).toBeGreaterThanOrEqual(0)
    expect(code.y + code.height).toBeLessThanOrEqual(DESKTOP.height)
    expect(await decodeQr(await card.locator('img').screenshot())).toBe(`${server.url}/enviar`)
    expect(await card.textContent()).toContain('Envie suas fotos')
    expect(await card.textContent()).toContain('Ana & Bruno')
    expect(await page.textContent('[data-testid=slideshow-invite-address]')).toBe(`${new URL(server.url).host}/enviar`)
    for (const text of await card.locator('p').all()) {
      const box = (await text.boundingBox())!
      expect(box.x + box.width, await text.textContent() ?? '').toBeLessThanOrEqual(DESKTOP.width)
      expect(overlap(box, code)).toBe(false)
      expect(await fontPx(text)).toBeGreaterThanOrEqual(32)
    }
    // The corner code and the words step aside while the card shows.
    expect(await page.locator('.slideshow__qr').count()).toBe(0)
    expect(await page.locator('.slideshow__caption').count()).toBe(0)
    // axe holds the page's main thread in turns while it reads, and the card's timer waits for it.
    const axeFrom = Date.now()
    await expectAccessible(page, 'the "send your photos" card')
    const axeMs = Date.now() - axeFrom

    // A few seconds, then the rotation goes on where it was (back to the newest), and the card
    // comes again only after three more slides.
    await until(async () => (await card.count()) === 0, 15_000, 'the card leaves')
    const cardMs = Date.now() - cardAt
    expect(cardMs).toBeGreaterThanOrEqual(6000)
    expect(cardMs - axeMs).toBeLessThan(12_000)
    const after: string[] = []
    let last = shown.at(-1)
    skipped = 0
    await until(async () => {
      const id = await onScreen(page)
      if (id && id !== last) after.push((last = id))
      if (id === wide.id && skipped < 56_000 && await skipSlideHold(page, 4000)) skipped += 4000
      return (await card.count()) > 0
    }, 90_000, 'the card again')
    expect(after).toEqual([portrait.id, wide.id, square.id])
  }, 240_000)

  it('the guest gallery no longer links to the venue screen', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.goto('/galeria')
    await page.locator('[data-testid=gallery-item]').first().waitFor()
    expect(await page.locator('a[href*="slideshow"]').count()).toBe(0)
    expect(await page.getByText('Modo telão').count()).toBe(0)
  })
})
