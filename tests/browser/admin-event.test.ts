import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto } from '../support/seed'
import { expectAccessible } from './support/axe'
import { screenshot } from './support/browser'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

describe('admin event configuration (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let watched: WatchedPage
  let page: Page
  /** PATCH /api/admin/event calls the page made. */
  let patches: string[] = []

  const field = (name: string) => page.locator(`[data-field=${name}]`)
  const adminEvent = async () => (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body

  beforeAll(async () => {
    watched = await pages.watched()
    page = watched.page
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().endsWith('/api/admin/event')) patches.push(request.postData() ?? '')
    })
    await page.goto('/admin/login?redirect=/admin?aba=evento')
    await loginThroughForm(page)
    await page.locator('[data-testid=event-form]').waitFor()
  })
  afterEach(() => {
    patches = []
  })

  async function openForm() {
    await page.goto('/admin?aba=evento')
    await page.locator('[data-testid=event-form]').waitFor()
  }

  async function save() {
    await page.locator('[data-testid=save-event]').click()
  }

  it('shows every setting, the size limit in MB', async () => {
    await openForm()
    expect(await page.locator('[name=coupleNames]').inputValue()).toBe('')
    expect(await page.locator('[name=eventDate]').inputValue()).toBe('')
    expect(await page.locator('[name=maxFileSizeMb]').inputValue()).toBe('500')
    expect(await page.locator('[name=allowVideos]').isChecked()).toBe(true)
    expect(await page.locator('[name=maxVideoDurationSec]').inputValue()).toBe('300')
    expect(await page.locator('[name=moderation][value=post]').isChecked()).toBe(true)
  })

  it('changing the moderation mode and the size limit saves them for guests', async () => {
    await openForm()
    await page.locator('[name=coupleNames]').fill('Ana & Bruno')
    await page.locator('[name=eventDate]').fill('2026-12-12')
    await page.locator('[name=maxFileSizeMb]').fill('200')
    await page.locator('[name=moderation][value=pre]').check()
    await save()
    await page.locator('[data-testid=event-result]', { hasText: 'Configuração salva.' }).waitFor()

    expect(patches.map(body => JSON.parse(body))).toEqual([
      { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12', maxFileSizeBytes: 200 * 1024 * 1024, moderation: 'pre' },
    ])
    expect(await adminEvent()).toMatchObject({ coupleNames: 'Ana & Bruno', eventDate: '2026-12-12', maxFileSizeBytes: 209715200, moderation: 'pre' })
    const publicView = (await api(server.url, '/api/event')).body
    expect(publicView).toMatchObject({ maxFileSizeBytes: 209715200, moderation: 'pre' })
    // A guest upload now waits for approval.
    expect((await seedPhoto(server.url)).status).toBe('pending')
    // The header names the couple.
    expect(await page.locator('header').textContent()).toContain('Ana & Bruno')

    // After a reload the form shows what was saved.
    await openForm()
    expect(await page.locator('[name=maxFileSizeMb]').inputValue()).toBe('200')
    expect(await page.locator('[name=moderation][value=pre]').isChecked()).toBe(true)
  })

  it('turning videos off and changing their length saves too', async () => {
    await openForm()
    await page.locator('[name=maxVideoDurationSec]').fill('90')
    await page.locator('[name=allowVideos]').uncheck()
    await save()
    await page.locator('[data-testid=event-result]', { hasText: 'Configuração salva.' }).waitFor()
    expect(await adminEvent()).toMatchObject({ allowVideos: false, maxVideoDurationSec: 90 })
    await page.locator('[name=allowVideos]').check()
    await save()
    await expect.poll(async () => (await adminEvent()).allowVideos).toBe(true)
  })

  it('an invalid value shows the error next to its field, and nothing is sent', async () => {
    await openForm()
    const before = await adminEvent()
    await page.locator('[name=maxVideoDurationSec]').fill('9999')
    await page.locator('[name=maxFileSizeMb]').fill('')
    await save()

    const durationError = field('maxVideoDurationSec').locator('[data-testid=field-error]')
    await durationError.waitFor()
    expect(await durationError.textContent()).toContain('entre 1 e 7.200')
    expect(await page.locator('[name=maxVideoDurationSec]').getAttribute('aria-invalid')).toBe('true')
    expect(await field('maxFileSizeBytes').locator('[data-testid=field-error]').textContent()).toContain('10.240 MB')
    // Valid fields carry no error.
    expect(await field('coupleNames').locator('[data-testid=field-error]').count()).toBe(0)
    expect(await page.locator('[data-testid=event-result]').textContent()).toContain('Corrija os campos marcados.')
    expect(patches).toEqual([])
    expect(await adminEvent()).toEqual(before)

    // Fixing the value clears the error on the next save.
    await page.locator('[name=maxVideoDurationSec]').fill('120')
    await page.locator('[name=maxFileSizeMb]').fill('300')
    await save()
    await page.locator('[data-testid=event-result]', { hasText: 'Configuração salva.' }).waitFor()
    expect(await page.locator('[data-testid=field-error]').count()).toBe(0)
    expect(await adminEvent()).toMatchObject({ maxVideoDurationSec: 120, maxFileSizeBytes: 300 * 1024 * 1024 })
  })

  it('an error the server finds is shown next to the field its issue names', async () => {
    await openForm()
    // The shared schema lets nothing invalid through, so the server's answer is staged here.
    await page.route('**/api/admin/event', (route) => {
      if (route.request().method() !== 'PATCH') return route.continue()
      return route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 400, statusMessage: 'Invalid request', data: { code: 'INVALID_REQUEST', issues: [{ path: ['coupleNames'], code: 'too_big', message: 'Too big' }] } }),
      })
    })
    try {
      await page.locator('[name=coupleNames]').fill('Outro nome')
      await save()
      const error = field('coupleNames').locator('[data-testid=field-error]')
      await error.waitFor()
      expect(await error.textContent()).toContain('Informe os nomes do casal')
      expect(await page.locator('[data-testid=field-error]').count()).toBe(1)
    }
    finally {
      await page.unroute('**/api/admin/event')
    }
  })

  it('links to the QR code as PNG, SVG and the printable PDF card, and to the ZIP export', async () => {
    await openForm()
    const expected: Record<string, [string, string]> = {
      'qr-png': ['/api/qrcode?format=png', 'image/png'],
      'qr-svg': ['/api/qrcode?format=svg', 'image/svg+xml'],
      'qr-pdf': ['/api/qrcode?format=pdf', 'application/pdf'],
      'export-zip': ['/api/admin/export.zip', 'application/zip'],
    }
    for (const [testid, [href, type]] of Object.entries(expected)) {
      const link = page.locator(`[data-testid=${testid}]`)
      expect(await link.getAttribute('href')).toBe(href)
      // Fetched with the page's own cookies, as a click would.
      const response = await page.request.get(href)
      expect(response.status(), testid).toBe(200)
      expect(response.headers()['content-type'], testid).toContain(type)
    }
  })

  it('previews the QR code and the printable card, and downloads them under the couple\'s names', async () => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João', eventDate: '2026-12-12' } })).status).toBe(200)
    await openForm()
    await expectAccessible(page, 'the event tab')
    for (const format of ['png', 'svg', 'pdf']) {
      const link = page.locator(`[data-testid=qr-${format}]`)
      expect(await link.getAttribute('download'), format).toBe(`qr-ana-e-joao.${format}`)
      expect(await link.getAttribute('target'), format).toBeNull()
    }
    // The QR code itself, as an image the page's CSP lets load.
    const qr = page.locator('[data-testid=qr-preview]')
    expect(await qr.getAttribute('src')).toBe('/api/qrcode?format=svg')
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    // The card: the names, the date and the code, as printed.
    const card = page.locator('[data-testid=card-preview]')
    expect(await card.locator('[data-testid=card-names]').textContent()).toContain('Ana & João')
    expect(await card.textContent()).toContain('12/12/2026')
    expect(await card.textContent()).toContain(`${new URL(server.url).host}/enviar`)
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)

    // A new name shows on the card and in the file names once saved.
    await field('coupleNames').locator('input').fill('Bia e Léo')
    await save()
    await expect.poll(() => page.locator('[data-testid=qr-pdf]').getAttribute('download')).toBe('qr-bia-e-leo.pdf')
    expect(await card.locator('[data-testid=card-names]').textContent()).toContain('Bia e Léo')
  })

  it('shows the venue screen\'s address, which follows the pace chosen, a button that opens it, and how to set a TV or tablet up', async () => {
    await openForm()
    const card = page.locator('[data-testid=slideshow-card]')
    const address = card.locator('[data-testid=slideshow-address]')
    const open = card.locator('[data-testid=open-slideshow]')
    // The defaults: the plain address, with the screen's key that opens a closed gallery to it.
    const { screenKey } = await adminEvent()
    expect(screenKey).toMatch(/^[\w-]{22}$/)
    await expect.poll(() => address.textContent()).toBe(`${server.url}/galeria?slideshow=1&chave=${screenKey}`)
    expect(await open.getAttribute('href')).toBe(`/galeria?slideshow=1&chave=${screenKey}`)
    expect(await open.getAttribute('target')).toBe('_blank')
    // The pace and the card's rhythm go into the address; nothing is saved, nothing is sent.
    await field('slideshowSeconds').locator('input').fill('10')
    await field('slideshowInvite').locator('input').fill('0')
    const paced = `/galeria?slideshow=1&segundos=10&convite=0&chave=${screenKey}`
    await expect.poll(() => address.textContent()).toBe(`${server.url}${paced}`)
    expect(await open.getAttribute('href')).toBe(paced)
    expect(patches).toEqual([])
    // The button opens the slideshow in a tab of its own.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()])
    await tab!.locator('[data-testid=slideshow]').waitFor()
    expect(new URL(tab!.url()).search).toBe(`?slideshow=1&segundos=10&convite=0&chave=${screenKey}`)
    await tab!.close()
    // How to keep it on all night: a computer, a TV, a tablet (installed as an app).
    const steps = await card.locator('.install li').allTextContents()
    expect(steps).toHaveLength(3)
    expect(steps.join(' ')).toMatch(/chromium --kiosk/)
    expect(steps.join(' ')).toMatch(/Smart TV/)
    expect(steps.join(' ')).toMatch(/Instalar app/)
    await screenshot(page, 'admin-event-slideshow', true)
    await expectAccessible(page, 'the event tab with the slideshow card')
  })
})
