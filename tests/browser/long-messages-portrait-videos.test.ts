import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, type GuestUpload } from '../support/guests'
import { labelledJpeg, tempDir } from '../support/media'
import { uploadFile } from '../support/uploads'
import { expectAccessible } from './support/axe'
import { screenshot, until } from './support/browser'
import { useBrowser } from './support/fixture'

/** A guest's long message: 600 characters, in words (as a toast would be written). */
const LONG = Array.from({ length: 60 }, (_, n) => `palavra${String(n).padStart(2, '0')}`).join(' ').padEnd(600, '!').slice(0, 600)

/**
 * Long messages and portrait videos, in Chromium against the built server. On a phone the viewer
 * cuts a long message at three lines with "ver mais", which opens the whole text in a region the
 * keyboard reaches and scrolls. On the projector a slide with a long message stays up long enough
 * to read it, the whole text on screen; a portrait video gets its poster, blurred, in the bars.
 */
describe('long messages and portrait videos', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let long: GuestUpload
  let portrait: string

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    // A 2 s portrait clip (360 × 640) and a portrait poster, as a phone held upright films.
    const dir = tempDir()
    const clip = join(dir, 'portrait.mp4')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=360x640:rate=25', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', clip])
    const bytes = readFileSync(clip)
    const sent = await uploadFile(server.url, bytes, { fileName: 'VID_PORTRAIT.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 2, author: 'Tia Rosa', message: '' }, { poster: await labelledJpeg(360, 640, 200, '▶ retrato') })
    expect(sent.confirm.status).toBe(200)
    portrait = sent.init.id
    await guestUpload(server.url, server.cookie, 1, { author: 'Convidado 1', message: 'Curta' })
    long = await guestUpload(server.url, server.cookie, 2, { author: 'Dona Iolanda', message: LONG })
    await guestUpload(server.url, server.cookie, 3, { author: 'Convidado 3', message: 'Outra curta' })
  }, 120_000)

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null)

  it('phone viewer: "ver mais" opens a long message, reachable and scrollable by keyboard, and axe passes', async () => {
    context = await pages.context('phone')
    const page = await context.newPage()
    await page.goto('/galeria')
    await page.locator(`[data-testid=gallery-item][data-id="${long.id}"]`).click()
    const viewer = page.locator('[data-testid=viewer]')
    await viewer.waitFor()
    const message = page.locator('[data-testid=viewer-message]')
    const more = page.locator('[data-testid=viewer-more]')
    await more.waitFor()
    expect(await message.getAttribute('data-expanded')).toBe('false')
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    expect((await more.textContent())?.trim()).toBe('ver mais')
    // Cut, not scrolling: three lines of it show.
    const cut = await message.evaluate(node => ({ scroll: node.scrollHeight, client: node.clientHeight, lineHeight: Number.parseFloat(getComputedStyle(node).lineHeight) }))
    expect(cut.scroll).toBeGreaterThan(cut.client)
    expect(Math.round(cut.client / cut.lineHeight)).toBe(3)
    await expectAccessible(page, 'the viewer with a long message, closed')

    // By keyboard only: Tab reaches "ver mais" (focus stays inside the viewer), Enter opens it.
    let presses = 0
    while ((await focusedTestId(page)) !== 'viewer-more' && presses < 8) {
      await page.keyboard.press('Tab')
      presses++
    }
    expect(await focusedTestId(page)).toBe('viewer-more')
    await page.keyboard.press('Enter')
    await until(async () => (await message.getAttribute('data-expanded')) === 'true', 5000, 'opened')
    expect(await more.getAttribute('aria-expanded')).toBe('true')
    expect((await more.textContent())?.trim()).toBe('ver menos')
    // The whole text, in a region that has the focus and scrolls with the arrow keys.
    expect((await message.textContent())?.trim()).toBe(LONG)
    expect(await focusedTestId(page)).toBe('viewer-message')
    const open = await message.evaluate(node => ({ scroll: node.scrollHeight, client: node.clientHeight, top: node.scrollTop }))
    expect(open.scroll).toBeGreaterThan(open.client)
    expect(open.top).toBe(0)
    await page.keyboard.press('PageDown')
    await until(() => message.evaluate(node => node.scrollTop > 0), 5000, 'scrolled by keyboard')
    await page.keyboard.press('End')
    await until(() => message.evaluate(node => Math.abs(node.scrollTop + node.clientHeight - node.scrollHeight) <= 2), 5000, 'the end of the message')
    await screenshot(page, 'viewer-long-message-open')
    await expectAccessible(page, 'the viewer with a long message, open')

    // Another item starts closed again.
    await page.keyboard.press('ArrowRight')
    await until(async () => (await viewer.getAttribute('data-id')) !== long.id, 5000, 'the next item')
    expect(await page.locator('[data-testid=viewer-message][data-expanded=true]').count()).toBe(0)
  }, 90_000)

  it('projector: a long message is shown whole and held long enough to read; short ones keep the pace', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1&segundos=2&convite=0')
    const show = page.locator('[data-testid=slideshow]')
    // How long each item stays on screen, from when it comes to when the next does.
    const spans: { id: string, ms: number }[] = []
    let current: string | null = null
    let since = Date.now()
    let sawLongWhole = false
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline && spans.filter(span => span.id === long.id).length < 1) {
      const id = await show.getAttribute('data-id')
      if (id !== current) {
        if (current) spans.push({ id: current, ms: Date.now() - since })
        current = id
        since = Date.now()
      }
      if (id === long.id && !sawLongWhole) {
        const text = page.locator('.slideshow__message').last()
        if (await text.count()) {
          const whole = await text.evaluate(node => ({ text: node.textContent?.trim(), cut: node.scrollHeight > node.clientHeight + 1 }))
          if (whole.text === LONG && !whole.cut) {
            sawLongWhole = true
            await screenshot(page, 'slideshow-long-message')
          }
        }
      }
      await page.waitForTimeout(200)
    }
    const held = spans.find(span => span.id === long.id)
    expect(held, 'the long message shown and left').toBeDefined()
    expect(sawLongWhole).toBe(true)
    // 600 characters at 15 a second, and 2 s to find them: 42 s, not the 2.4 s of a short one.
    expect(held!.ms).toBeGreaterThan(38_000)
    const shortPhotos = spans.filter(span => span.id !== long.id && span.id !== portrait)
    expect(shortPhotos.length).toBeGreaterThan(0)
    for (const span of shortPhotos) expect(span.ms).toBeLessThan(8000)
  }, 150_000)

  it('projector: a portrait video gets the blurred fill from its poster, not black bars', async () => {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1&segundos=2&convite=0')
    const slide = page.locator('.slideshow-slide--ready:has(video)')
    await until(async () => (await page.getAttribute('[data-testid=slideshow]', 'data-id')) === portrait && (await slide.count()) > 0, 90_000, 'the portrait video on screen')
    const poster = await slide.locator('video').getAttribute('poster')
    expect(poster).toMatch(/-poster\.jpg$/)
    const backdrop = slide.locator('[data-testid=slideshow-backdrop]')
    expect(await backdrop.count()).toBe(1)
    expect(await backdrop.getAttribute('src')).toBe(poster)
    await until(() => backdrop.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 10_000, 'the fill drawn')
    // Drawn under the video, blurred.
    expect(await backdrop.evaluate(img => getComputedStyle(img).filter)).toContain('blur')
    const order = await slide.evaluate(node => [...node.children].map(child => child.tagName.toLowerCase()))
    expect(order.indexOf('img')).toBeLessThan(order.indexOf('video'))
    await screenshot(page, 'slideshow-portrait-video')
  }, 120_000)
})
