import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm, VIEWPORTS } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, setModeration } from '../support/seed'
import { useBrowser } from './support/fixture'
import { FAKE_MEDIA_DEVICES } from '../support/chromium'
import type { WatchedPage } from '../support/watch-page'

/** Longer than one refresh of the dashboard (5 s) and of the Recados view (15 s), with room for a busy machine. */
const REFRESH_WAIT = 30_000

/**
 * A guest writes a message and records one in Chromium (its fake microphone), the couple approves
 * both in the Recados tab, the guests see them in /galeria's Recados view, and the venue screen
 * shows the written one as a card. Nothing is stubbed: the real server, the real upload queue.
 */
describe('the guestbook in the browser', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server, args: FAKE_MEDIA_DEVICES })
  let guest: WatchedPage
  let textId: string
  let audioId: string

  beforeAll(async () => {
    await setModeration(server.url, server.cookie, 'pre')
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    guest = await pages.watched(VIEWPORTS.tablet)
    await guest.context.grantPermissions(['microphone'], { origin: server.url })
  })

  const pendingIds = async (type: 'text' | 'audio') =>
    (await api(server.url, '/api/admin/guestbook?status=pending', { cookie: server.cookie })).body.items
      .filter((item: { type: string }) => item.type === type).map((item: { id: string }) => item.id) as string[]

  async function until<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
    const deadline = Date.now() + REFRESH_WAIT
    for (;;) {
      const value = await check()
      if (value) return value
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise(resolve => setTimeout(resolve, 250))
    }
  }

  it('a guest writes a message from the home page\'s "Deixe um recado" and records a short one', async () => {
    const page: Page = guest.page
    await page.goto('/')
    await page.locator('[data-testid=guestbook-entry]').click()
    await page.waitForURL(url => url.pathname === '/recado')
    const form = page.locator('[data-testid=guestbook-form]')
    await form.waitFor()
    await page.waitForLoadState('networkidle')
    await form.locator('[name=author]').fill('Tia Conceição')
    await form.locator('[name=text]').fill('Felicidades, meus queridos! Que a vida seja leve.')
    await page.locator('[data-testid=guestbook-send]').click()
    await page.locator('[data-testid=guestbook-sent]').waitFor()
    textId = (await until(async () => (await pendingIds('text'))[0], 'the written message'))!

    await page.locator('[data-testid=guestbook-record]').click()
    await page.locator('[data-testid=guestbook-record-stop]').waitFor()
    await page.waitForTimeout(2500)
    await page.locator('[data-testid=guestbook-record-stop]').click()
    const review = page.locator('[data-testid=guestbook-recording]')
    await review.waitFor()
    // Played back before it is sent: the browser can read its length.
    const duration = await review.locator('audio').evaluate(async (audio: HTMLAudioElement) => {
      if (audio.readyState < 1) await new Promise(resolve => audio.addEventListener('loadedmetadata', resolve, { once: true }))
      return audio.duration
    })
    expect(duration === Infinity || duration > 1).toBe(true)
    await page.locator('[data-testid=guestbook-send-recording]').click()
    // The recorder says when the server has it (it waits for the couple's approval here).
    const arrived = page.locator('[data-testid=guestbook-sent][data-type=audio]')
    await arrived.waitFor({ timeout: 20_000 })
    expect(await arrived.textContent()).toContain('depois que o casal aprovar')
    audioId = (await until(async () => (await pendingIds('audio'))[0], 'the spoken message'))!
    const record = (await api(server.url, '/api/admin/guestbook?status=pending', { cookie: server.cookie })).body.items.find((item: { id: string }) => item.id === audioId)
    expect(record).toMatchObject({ type: 'audio', author: 'Tia Conceição', text: null })
    expect(record.durationSec).toBeGreaterThan(1.5)
    expect(record.durationSec).toBeLessThan(6)
  })

  it('the couple approves both in the Recados tab; guests see them in /galeria\'s Recados view', async () => {
    const admin = await pages.watched()
    await admin.page.goto('/admin/login')
    await loginThroughForm(admin.page)
    await admin.page.waitForURL(url => url.pathname === '/admin')
    await admin.page.locator('[data-testid=tab-recados]').click()
    const cards = admin.page.locator('[data-testid=admin-guestbook-item]')
    await admin.page.locator(`[data-testid=admin-guestbook-item][data-id="${textId}"]`).waitFor({ timeout: REFRESH_WAIT })
    await admin.page.locator(`[data-testid=admin-guestbook-item][data-id="${audioId}"]`).waitFor({ timeout: REFRESH_WAIT })
    expect(await cards.count()).toBe(2)
    await admin.page.locator('[data-testid=select-all]').check()
    await admin.page.locator('[data-testid=bulk-approve]').click()
    await until(async () => (await pendingIds('text')).length + (await pendingIds('audio')).length === 0, 'the approvals')
    // The voice message is an upload too: in the moderation list it shows a microphone, not a
    // missing picture, and its preview is a player.
    await admin.page.locator('[data-testid=tab-moderacao]').click()
    await admin.page.locator('[data-testid=status-all]').click()
    const voiceTile = admin.page.locator(`[data-testid=admin-upload][data-id="${audioId}"]`)
    await voiceTile.waitFor({ timeout: REFRESH_WAIT })
    expect(await voiceTile.getAttribute('data-kind')).toBe('audio')
    expect(await voiceTile.locator('img').count()).toBe(0)
    expect(await voiceTile.locator('svg.voice').count()).toBe(1)
    expect(await voiceTile.locator('.no-poster').count()).toBe(0)
    await voiceTile.locator('[data-testid=preview]').click()
    const player = admin.page.locator('[data-testid=preview-dialog] [data-testid=preview-audio]')
    await player.waitFor()
    expect(await player.getAttribute('src')).toBeTruthy()
    expect(await admin.page.locator('[data-testid=preview-dialog] [data-testid=preview-image]').count()).toBe(0)
    expect(admin.problems).toEqual([])
    await admin.context.close()

    const page = guest.page
    await page.goto('/galeria?ver=recados')
    await page.locator(`[data-testid=guestbook-item][data-id="${textId}"]`).waitFor({ timeout: REFRESH_WAIT })
    expect(await page.getAttribute(`[data-testid=guestbook-item][data-id="${textId}"]`, 'data-type')).toBe('text')
    expect(await page.locator(`[data-testid=guestbook-item][data-id="${textId}"]`).textContent()).toContain('Felicidades, meus queridos!')
    const voice = page.locator(`[data-testid=guestbook-item][data-id="${audioId}"]`)
    await voice.waitFor()
    expect(await voice.getAttribute('data-type')).toBe('audio')
    expect(await voice.textContent()).toContain('Recado de voz de Tia Conceição')
    const playable = await voice.locator('audio').evaluate(async (audio: HTMLAudioElement) => {
      audio.preload = 'metadata'
      audio.load()
      await new Promise((resolve, reject) => {
        audio.addEventListener('loadedmetadata', resolve, { once: true })
        audio.addEventListener('error', () => reject(new Error(String(audio.error?.code))), { once: true })
      })
      return audio.readyState >= 1
    })
    expect(playable).toBe(true)
  })

  it('the venue screen shows the written message as a full-screen card between photos, and no player', async () => {
    await setModeration(server.url, server.cookie, 'post')
    await seedPhoto(server.url, { author: 'Primo Caio' })
    const screen = await pages.watched({ width: 1280, height: 720 })
    await screen.page.goto('/galeria?slideshow=1&segundos=2&recados=1')
    const card = screen.page.locator(`[data-testid=slideshow-message][data-id="${textId}"]`)
    await card.waitFor({ timeout: REFRESH_WAIT })
    expect(await card.textContent()).toContain('Felicidades, meus queridos!')
    expect(await card.textContent()).toContain('Tia Conceição')
    expect(await screen.page.locator('audio').count()).toBe(0)
    const fontSize = await card.locator('blockquote').evaluate(el => Number.parseFloat(getComputedStyle(el).fontSize))
    // 6vmin of a 720 px screen: type read from the back of the hall.
    expect(fontSize).toBeGreaterThanOrEqual(40)
    expect(screen.problems).toEqual([])
    await screen.context.close()
  })
})
