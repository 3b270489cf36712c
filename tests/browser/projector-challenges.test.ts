import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { guestUpload } from '../support/guests'
import { api } from '../support/http'
import { labelledJpeg } from '../support/media'
import { waitForDerived } from '../support/seed'
import { useTestServer } from '../support/suite/test-server'
import { uploadFile } from '../support/uploads'
import { skipSlideHold, until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The couple's challenges on the venue screen, real server and real Chromium: every `desafios`
 * slides the projector shows an active challenge's prompt, large, with the QR to /enviar, and
 * then that challenge's answer; a challenge switched off never shows. Timers run on the page's
 * clock, moved on by the test only while every slide is shown whole.
 */
describe('the projector\'s challenge card', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })
  let selfie: { id: string, text: string }
  let off: { id: string, text: string }
  let answerId = ''

  beforeAll(async () => {
    expect((await admin('PATCH', '/api/admin/event', { moderation: 'post' })).status).toBe(200)
    selfie = (await admin('POST', '/api/admin/challenges', { text: 'Uma selfie com a noiva' })).body
    off = (await admin('POST', '/api/admin/challenges', { text: 'O passo de dança mais ousado' })).body
    expect((await admin('PATCH', `/api/admin/challenges/${off.id}`, { active: false })).status).toBe(200)
    // The answer is the oldest photo, so the rotation (newest first) does not show it just before the card.
    const bytes = await labelledJpeg(1600, 1200, 300, 'Selfie!')
    const answer = await uploadFile(server.url, bytes, { fileName: 'SELFIE.jpg', contentType: 'image/jpeg', size: bytes.length, challengeId: selfie.id })
    expect(answer.confirm.status).toBe(200)
    answerId = answer.init.id
    await waitForDerived(server.url, server.cookie, answerId)
    for (let n = 1; n <= 3; n++) await guestUpload(server.url, server.cookie, n, { author: `Convidado ${n}` })
    const answers = (await api(server.url, `/api/gallery?challenge=${selfie.id}`)).body.items
    expect(answers.map((item: { id: string }) => item.id)).toEqual([answerId])
  }, 120_000)

  const onScreen = (page: Page) => page.getAttribute('[data-testid=slideshow]', 'data-id')
  const card = (page: Page) => page.locator('[data-testid=slideshow-challenge]')

  it('shows an active challenge\'s prompt with the QR to /enviar, then that challenge\'s answer', async () => {
    const page = await (await pages.context('desktop')).newPage()
    await page.clock.install()
    // The card's answers are fetched ahead, as the prompts arrive: the show starts once they have.
    const answersFetched = page.waitForResponse(response => new URL(response.url()).searchParams.get('challenge') === selfie.id, { timeout: 60_000 })
    await page.goto('/galeria?slideshow=1&segundos=20&convite=0&recados=0&desafios=2')
    expect((await answersFetched).status()).toBe(200)

    const cardsSeen = new Set<string>()
    await until(async () => {
      if (await card(page).count()) return true
      await skipSlideHold(page, 20_000)
      return false
    }, 90_000, 'the challenge card')
    cardsSeen.add((await card(page).getAttribute('data-id'))!)
    expect(await card(page).locator('[data-testid=slideshow-challenge-text]').textContent()).toBe('Uma selfie com a noiva')
    expect(await card(page).textContent()).toContain('Aponte a câmera do celular para o código e envie a sua')
    const qr = card(page).locator('img')
    expect(await qr.getAttribute('src')).toBe('/api/qrcode?format=svg')
    await until(() => qr.evaluate(img => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), 30_000, 'the QR drawn')
    // The corner QR steps aside while the card shows its own, large.
    expect(await page.locator('.slideshow__qr').count()).toBe(0)

    // The card's time passes; the challenge's answer comes next, read once its own layer is ready.
    await page.clock.fastForward(30_000)
    await until(async () => {
      const loading = await page.locator('.slideshow-slide:not(.slideshow-slide--ready)').count()
      return !loading && !(await card(page).count()) && (await onScreen(page)) === answerId
    }, 60_000, 'the answer after the card')
    const picture = page.locator('.slideshow-slide--ready').last().locator('img.slideshow-slide__media')
    expect(await picture.evaluate(img => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)

    // Round again: the one active challenge is the only card the screen ever shows.
    await until(async () => {
      if (await card(page).count()) {
        cardsSeen.add((await card(page).getAttribute('data-id'))!)
        return true
      }
      await skipSlideHold(page, 20_000)
      return false
    }, 90_000, 'the challenge card again')
    expect([...cardsSeen]).toEqual([selfie.id])
    expect(cardsSeen.has(off.id)).toBe(false)
  })
})
