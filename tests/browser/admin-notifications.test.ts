import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchChromium, loginThroughForm, openWatchedPage, type WatchedPage } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { startReceiver, type Receiver } from '../support/receiver'
import { seedPhoto, setModeration } from '../support/seed'

describe('the couple hears of what waits (browser)', () => {
  const server = useTestServer({ admin: true, env: { NOTIFY_BATCH_SECONDS: '1' } })
  let browser: Browser
  let watched: WatchedPage
  let page: Page
  let receiver: Receiver
  let patches = 0

  beforeAll(async () => {
    receiver = await startReceiver()
    await setModeration(server.url, server.cookie, 'pre')
    browser = await launchChromium()
    watched = await openWatchedPage(browser, server.url)
    page = watched.page
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().endsWith('/api/admin/event')) patches++
    })
    await page.goto('/admin/login?redirect=/admin')
    await loginThroughForm(page)
  })
  afterAll(async () => {
    await browser?.close()
    await receiver?.close()
  })
  afterEach(() => {
    const problems = watched.problems.splice(0)
    expect(problems, 'uncaught errors or CSP violations in the page').toEqual([])
  })

  /** The page's own title, before the site's name the app adds after it (app.vue). */
  const titled = (title: string) => page.waitForFunction(expected => document.title.split(' · ')[0] === expected, title, { timeout: 15_000 })

  it('the tab\'s title counts what waits for moderation, photos and messages, and follows it', async () => {
    await titled('Moderação')
    const photos = [await seedPhoto(server.url), await seedPhoto(server.url)]
    expect((await api(server.url, '/api/guestbook', { method: 'POST', json: { text: 'Felicidades!' } })).status).toBe(201)
    // The header's numbers are polled every 5 s.
    await titled('(3) Moderação')
    expect((await api(server.url, `/api/admin/uploads/${photos[0]!.id}/approve`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    await titled('(2) Moderação')
    await page.goto('/admin?aba=evento')
    await titled('(2) Evento')
  })

  it('the Event tab sets the receiver, refuses a metadata address, and sends a test', async () => {
    const card = page.locator('[data-testid=notifications-card]')
    await card.waitFor()
    const before = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body
    await expect(card.locator('[data-testid=notify-secret]').textContent()).resolves.toBe(before.notifySecret)
    await expect(card.locator('[data-testid=notify-last-status]').textContent()).resolves.toContain('Nenhum aviso enviado ainda.')

    await card.locator('[name=notifyUrl]').fill('http://169.254.169.254/latest/')
    await card.getByRole('button', { name: 'Salvar avisos' }).click()
    await card.getByText('Endereços link-local e de metadados de nuvem são recusados.').waitFor()
    expect(patches).toBe(0)

    await card.locator('[name=notifyUrl]').fill(`${receiver.url}/topic`)
    await card.locator('[name=notifyFormat][value=ntfy]').check()
    await card.getByRole('button', { name: 'Salvar avisos' }).click()
    await card.getByText('Avisos salvos.').waitFor()
    const saved = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body
    expect(saved).toMatchObject({ notifyUrl: `${receiver.url}/topic`, notifyFormat: 'ntfy', notifyOn: 'pending' })

    receiver.clear()
    receiver.answerWith(200)
    await card.locator('[data-testid=notify-test]').click()
    await card.getByText('O receptor respondeu 200.').waitFor()
    const [post] = await receiver.waitFor(1)
    expect(post!.body.toString('utf8')).toBe('Aviso de teste: os avisos do evento chegam aqui.')
    await expect(card.locator('[data-testid=notify-last-status]').textContent()).resolves.toContain('resposta 200')
  })
})
