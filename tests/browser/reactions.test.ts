import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, type GuestUpload } from '../support/guests'
import { desktopContext, launchBrowser, phoneContext, screenshot, until } from './support/browser'

/**
 * Hearts and comments where guests see them, against the real server: the viewer's heart and
 * one-line comment form on a phone (390×844), the tile's count, and the venue screen showing a
 * photo's hearts and its latest comment. Nothing is stubbed; a failing heart is a real 403 (the
 * couple closes the gallery meanwhile).
 */
describe('hearts and comments on a phone and on the projector', () => {
  const server = useTestServer({ admin: true })
  let browser: Browser
  let context: BrowserContext | undefined
  let photo: GuestUpload
  let screenPhoto: GuestUpload

  const setEvent = (patch: Record<string, unknown>) => api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
  const galleryItem = async (id: string) => (await api(server.url, '/api/gallery?limit=100')).body.items.find((item: { id: string }) => item.id === id)

  beforeAll(async () => {
    expect((await setEvent({ moderation: 'post' })).status).toBe(200)
    screenPhoto = await guestUpload(server.url, server.cookie, 3, { author: 'Tia Lúcia', derived: true })
    photo = await guestUpload(server.url, server.cookie, 2, { author: 'Primo Caio', message: 'Na pista!', derived: true })
    browser = await launchBrowser()
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function openViewer(): Promise<Page> {
    context ??= await phoneContext(browser, server.url)
    const page = await context.newPage()
    await page.goto('/galeria')
    await page.locator(`[data-testid=gallery-item][data-id="${photo.id}"]`).click()
    await page.locator('[data-testid=viewer]').waitFor()
    return page
  }

  it('a heart from the viewer counts at once, stays after a reload, shows on the tile, and is undone when the server refuses it', async () => {
    const page = await openViewer()
    const heart = page.locator('[data-testid=viewer-heart]')
    expect(await heart.getAttribute('aria-pressed')).toBe('false')
    expect(await page.locator('[data-testid=viewer-heart-count]').textContent()).toBe('0')
    const box = (await heart.boundingBox())!
    expect(box.height).toBeGreaterThanOrEqual(44)
    expect(box.y + box.height).toBeLessThanOrEqual(844)

    await heart.click()
    expect(await heart.getAttribute('aria-pressed')).toBe('true')
    expect(await page.locator('[data-testid=viewer-heart-count]').textContent()).toBe('1')
    await until(async () => (await galleryItem(photo.id))?.hearts === 1, 10_000, 'the heart on the server')
    await screenshot(page, 'viewer-heart-phone')

    // Another visit from this phone: its heart is known (GET /api/gallery/hearted), and the tile shows the count.
    await page.reload()
    expect((await page.locator(`[data-testid=gallery-item][data-id="${photo.id}"] [data-testid=tile-hearts]`).textContent())?.trim()).toBe('1')
    await page.locator(`[data-testid=gallery-item][data-id="${photo.id}"]`).click()
    await until(async () => (await heart.getAttribute('aria-pressed')) === 'true', 10_000, 'the heart remembered')

    // The couple closes the gallery: the tap shows at once, then is undone by the 403.
    expect((await setEvent({ galleryMode: 'upload-only' })).status).toBe(200)
    try {
      const refused = page.waitForResponse(response => response.url().endsWith(`/api/gallery/${photo.id}/heart`))
      await heart.click()
      expect((await refused).status()).toBe(403)
      await until(async () => (await heart.getAttribute('aria-pressed')) === 'true', 5000, 'the heart put back')
      expect(await page.locator('[data-testid=viewer-heart-count]').textContent()).toBe('1')
    }
    finally {
      await setEvent({ galleryMode: 'live' })
    }
    expect((await galleryItem(photo.id)).hearts).toBe(1)
  })

  it('a comment from the viewer\'s one-line form shows under the message and reaches the server', async () => {
    const page = await openViewer()
    const comments = page.locator('[data-testid=viewer-comments]')
    const form = page.locator('[data-testid=comment-form]')
    await comments.waitFor()
    await form.locator('input').fill('Que foto linda!')
    // The arrow keys move the cursor in the field, not to the next photo.
    await form.locator('input').press('ArrowLeft')
    expect(await page.locator('[data-testid=viewer]').getAttribute('data-id')).toBe(photo.id)
    await form.locator('input').press('Enter')
    await until(async () => (await comments.locator('[data-testid=viewer-comment]').allTextContents()).some(text => text.includes('Que foto linda!')), 10_000, 'the comment under the photo')
    expect(await form.locator('input').inputValue()).toBe('')
    const listed = await api(server.url, `/api/gallery/${photo.id}/comments`)
    expect(listed.body.items.map((item: { text: string }) => item.text)).toEqual(['Que foto linda!'])
    const inputBox = (await form.locator('input').boundingBox())!
    expect(inputBox.y + inputBox.height).toBeLessThanOrEqual(844)
    await screenshot(page, 'viewer-comment-phone')

    // Under pre-moderation the guest is told it waits for the couple, and it is not listed.
    expect((await setEvent({ moderation: 'pre' })).status).toBe(200)
    try {
      await form.locator('input').fill('Esperando os noivos')
      await form.locator('button[type=submit]').click()
      await page.locator('[data-testid=comment-notice]').waitFor()
      expect(await page.locator('[data-testid=comment-notice]').textContent()).toContain('aprovarem')
      expect(await comments.locator('[data-testid=viewer-comment]').count()).toBe(1)
    }
    finally {
      await setEvent({ moderation: 'post' })
    }
  })

  it('the projector shows a photo\'s count of hearts and its latest approved comment', async () => {
    // Three devices: each call without a cookie is given a new one.
    for (let i = 1; i <= 3; i++) {
      const heart = await api(server.url, `/api/gallery/${screenPhoto.id}/heart`, { method: 'POST' })
      expect([heart.status, heart.body]).toEqual([200, { hearts: i, hearted: true }])
    }
    await api(server.url, `/api/gallery/${screenPhoto.id}/comments`, { method: 'POST', json: { author: 'Vovó', text: 'Que festa!' } })
    await api(server.url, `/api/gallery/${screenPhoto.id}/comments`, { method: 'POST', json: { author: 'Dindo', text: 'Lindos demais' } })
    await until(async () => (await galleryItem(screenPhoto.id))?.hearts === 3, 10_000, 'three hearts in the gallery answer')

    context = await desktopContext(browser, server.url)
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1&segundos=4&convite=0')
    await until(async () => (await page.getAttribute('[data-testid=slideshow]', 'data-id')) === screenPhoto.id, 30_000, 'the hearted photo on screen')
    // The slide's own caption (another photo's may still be fading out): the one with its comment.
    const reactions = page.locator('[data-testid=slideshow-reactions]').filter({ hasText: 'Lindos demais' })
    await reactions.waitFor()
    const hearts = reactions.locator('[data-testid=slideshow-hearts]')
    expect((await hearts.textContent())?.trim()).toBe('3')
    const comment = reactions.locator('[data-testid=slideshow-comment]')
    expect(await comment.textContent()).toContain('“Lindos demais”')
    expect(await comment.textContent()).toContain('— Dindo')
    const fontPx = await comment.evaluate(el => Number.parseFloat(getComputedStyle(el).fontSize))
    expect(fontPx).toBeGreaterThanOrEqual(28)
    await screenshot(page, 'slideshow-hearts-comment')
  })
})
