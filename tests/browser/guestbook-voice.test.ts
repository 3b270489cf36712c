import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm, VIEWPORTS } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, setModeration } from '../support/seed'
import { useBrowser } from './support/fixture'
import { FAKE_MEDIA_DEVICES } from '../support/chromium'
import type { WatchedPage } from '../support/watch-page'

/** Longer than a slideshow round with one photo, a message card every slide, and a busy machine. */
const SCREEN_WAIT = 45_000

/**
 * A guest records voice messages in Chromium (its fake microphone: a beep), sees each one arrive,
 * takes one back and records another; the venue screen shows the approved one as a card in its
 * rotation, silent until the couple turns the screen's sound on and someone taps the screen.
 * Nothing is stubbed: the real server, the real upload queue, the real recorder.
 */
describe('voice messages that feel sent, and heard on the venue screen', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server, args: FAKE_MEDIA_DEVICES })
  let guest: WatchedPage
  let keptId: string

  beforeAll(async () => {
    await setModeration(server.url, server.cookie, 'post')
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    guest = await pages.watched(VIEWPORTS.tablet)
    await guest.context.grantPermissions(['microphone'], { origin: server.url })
  })

  const voiceMessages = async () =>
    ((await api(server.url, '/api/admin/guestbook?status=all', { cookie: server.cookie })).body.items as { id: string, type: string, author: string, status: string }[])
      .filter(item => item.type === 'audio')

  /** Records about two seconds and sends it; answers once the page says it arrived. */
  async function recordAndSend(page: Page) {
    await page.locator('[data-testid=guestbook-record]').click()
    await page.locator('[data-testid=guestbook-record-stop]').waitFor()
    await page.waitForTimeout(2200)
    await page.locator('[data-testid=guestbook-record-stop]').click()
    await page.locator('[data-testid=guestbook-send-recording]').click()
    const sent = page.locator('[data-testid=guestbook-sent][data-type=audio]')
    await sent.waitFor({ timeout: 20_000 })
    return sent
  }

  it('after "Enviar gravação" the page says the message arrived, offers "Desfazer" and the record button again', async () => {
    const page = guest.page
    await page.goto('/recado')
    await page.locator('[data-testid=guestbook-form] [name=author]').fill('Tio Zé')
    await page.waitForLoadState('networkidle')
    const sent = await recordAndSend(page)
    expect((await sent.textContent())!).toContain('Recado de voz recebido. Obrigado!')
    expect(await sent.getAttribute('role')).toBe('status')
    // It is on the server, approved (the event moderates after), under the guest's name.
    const [arrived] = await voiceMessages()
    expect(arrived).toMatchObject({ type: 'audio', author: 'Tio Zé', status: 'approved' })
    expect(await sent.locator('[data-testid=guestbook-recording-undo]').isVisible()).toBe(true)
    const again = page.locator('[data-testid=guestbook-record]')
    expect(await again.count()).toBe(1)
    expect(await again.isEnabled()).toBe(true)
    expect((await again.textContent())!.trim()).toBe('Gravar outro recado')
    // The queue's "on its way" line is gone once it arrived.
    expect(await page.locator('[data-testid=guestbook-recording-queued]').count()).toBe(0)

    // "Desfazer" takes it back from the server; the recorder is ready again.
    await sent.locator('[data-testid=guestbook-recording-undo]').click()
    await page.locator('[data-testid=guestbook-recording-undone]').waitFor()
    await expect.poll(async () => (await voiceMessages()).map(item => item.id)).toEqual([])
    expect(await page.locator('[data-testid=guestbook-sent][data-type=audio]').count()).toBe(0)
    expect(await page.locator('[data-testid=guestbook-record]').isEnabled()).toBe(true)
  })

  it('"Gravar outro recado" starts the next recording at once; that one arrives too', async () => {
    const page = guest.page
    const first = await recordAndSend(page)
    await expect.poll(async () => (await voiceMessages()).length).toBe(1)
    keptId = (await voiceMessages())[0]!.id
    await first.locator('[data-testid=guestbook-record]').click()
    await page.locator('[data-testid=guestbook-record-stop]').waitFor()
    await page.waitForTimeout(1200)
    await page.locator('[data-testid=guestbook-record-stop]').click()
    await page.locator('[data-testid=guestbook-send-recording]').click()
    await page.locator('[data-testid=guestbook-sent][data-type=audio]').waitFor({ timeout: 20_000 })
    await expect.poll(async () => (await voiceMessages()).length).toBe(2)
    // The first one stays sent: recording another does not take it back.
    expect((await voiceMessages()).map(item => item.id)).toContain(keptId)
    // Only one voice message on the screen's rotation for what follows.
    const second = (await voiceMessages()).find(item => item.id !== keptId)!
    expect((await api(server.url, `/api/admin/guestbook/${second.id}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
  })

  it('the venue screen shows the approved voice message as a silent card: author, length, microphone, waveform', async () => {
    await seedPhoto(server.url, { author: 'Primo Caio' })
    const screen = await pages.watched({ width: 1280, height: 720 })
    await screen.page.goto('/galeria?slideshow=1&segundos=2&recados=1')
    const card = screen.page.locator(`[data-testid=slideshow-voice][data-id="${keptId}"]`)
    await card.waitFor({ timeout: SCREEN_WAIT })
    const text = (await card.textContent())!
    expect(text).toContain('Recado de voz')
    expect(text).toContain('Tio Zé')
    expect(text).toMatch(/· 0:0[2-3]/)
    expect(await card.locator('svg.slideshow-voice__mic').count()).toBe(1)
    expect(await card.locator('.slideshow-voice__wave span').count()).toBe(32)
    expect(await card.getAttribute('data-aloud')).toBe('false')
    // Silent: no player at all, and nothing asks for a tap.
    expect(await screen.page.locator('audio').count()).toBe(0)
    expect(await screen.page.locator('[data-testid=slideshow-sound-hint]').count()).toBe(0)
    expect(screen.problems).toEqual([])
    await screen.context.close()
  })

  it('the couple turns the screen\'s sound on in the Event tab, which says a tap on the screen is needed; after a tap the card plays', async () => {
    const admin = await pages.watched()
    await admin.page.goto('/admin/login')
    await loginThroughForm(admin.page)
    await admin.page.waitForURL(url => url.pathname === '/admin')
    await admin.page.goto('/admin?aba=evento')
    const sound = admin.page.locator('[name=screenSound]')
    await sound.waitFor()
    expect(await sound.isChecked()).toBe(false)
    // Its hint, tied to the box, says why a tap on the screen is needed.
    const hintId = await sound.getAttribute('aria-describedby')
    expect(hintId).toBeTruthy()
    const help = (await admin.page.locator(hintId!.split(' ').map(id => `[id="${id}"]`).join(', ')).allTextContents()).join(' ')
    expect(help).toContain('só toca som depois que alguém toca (ou clica) uma vez na tela')
    await sound.check()
    await admin.page.locator('[data-testid=save-event]').click()
    await expect.poll(async () => (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body.screenSound).toBe(true)
    expect((await api(server.url, '/api/event')).body.screenSound).toBe(true)
    expect(admin.problems).toEqual([])
    await admin.context.close()

    const screen = await pages.watched({ width: 1280, height: 720 })
    await screen.page.goto('/galeria?slideshow=1&segundos=2&recados=1')
    const hint = screen.page.locator('[data-testid=slideshow-sound-hint]')
    await hint.waitFor()
    expect((await hint.textContent())!.trim()).toBe('Toque na tela para ligar o som dos recados de voz')
    // Before the tap a voice card stays silent.
    const card = screen.page.locator(`[data-testid=slideshow-voice][data-id="${keptId}"]`)
    await card.waitFor({ timeout: SCREEN_WAIT })
    expect(await card.getAttribute('data-aloud')).toBe('false')
    expect(await screen.page.locator('audio').count()).toBe(0)

    await screen.page.mouse.click(640, 360)
    await hint.waitFor({ state: 'detached' })
    // The next time round, the card plays its recording.
    await screen.page.locator(`[data-testid=slideshow-voice][data-id="${keptId}"][data-aloud=true]`).waitFor({ timeout: SCREEN_WAIT })
    const audio = screen.page.locator('[data-testid=slideshow-voice-audio]')
    await screen.page.waitForFunction(() => {
      const element = document.querySelector('[data-testid=slideshow-voice-audio]') as HTMLAudioElement | null
      return !!element && !element.paused && element.currentTime > 0
    }, undefined, { timeout: 15_000 })
    expect(await audio.getAttribute('src')).toMatch(/^https?:\/\//)
    expect(screen.problems).toEqual([])
    await screen.context.close()
  })
})
