import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, setModeration } from '../support/seed'
import { screenshot } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The venue screen opened at `/galeria?slideshow=1` without its key, while the gallery is guarded
 * (a PIN) or closed to guests: the technician must read that the screen needs its keyed address and
 * where the couple's panel shows it, not an offline notice that sends them to debug the Wi-Fi.
 * The real server, real uploads; nothing is stubbed.
 */
describe('the venue screen without its key', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  let photoId: string

  const patchEvent = async (json: Record<string, unknown>) => {
    const answer = await api(server.url, '/api/admin/event', { method: 'PATCH', json, cookie: server.cookie })
    expect(answer.status).toBe(200)
    return answer.body
  }

  beforeAll(async () => {
    await setModeration(server.url, server.cookie, 'post')
    await patchEvent({ coupleNames: 'Ana & Bruno' })
    photoId = (await seedPhoto(server.url, { author: 'Primo Caio' })).id
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  /** The screen on its own clock (its timers, running at real speed until a test moves them on). */
  async function openScreen(query = ''): Promise<Page> {
    context = await pages.context('desktop')
    const page = await context.newPage()
    await page.clock.install()
    await page.goto(`/galeria?slideshow=1${query}`)
    return page
  }

  const screenState = (page: Page) => page.evaluate(() => {
    const root = document.querySelector('[data-testid=slideshow]')!
    return {
      offline: root.getAttribute('data-offline'),
      id: root.getAttribute('data-id'),
      offlineNotice: document.querySelector('.slideshow__offline')?.textContent ?? null,
      waiting: document.querySelector('.slideshow__waiting:not(.slideshow__needs-key)')?.textContent ?? null,
    }
  })

  it('with a PIN set, says in Portuguese that the screen needs its address from the Event tab, and is not offline', async () => {
    await patchEvent({ galleryPin: '2468', galleryMode: 'live', language: 'pt-BR' })
    const page = await openScreen()
    const notice = page.locator('[data-testid=slideshow-needs-key]')
    await notice.waitFor({ timeout: 20_000 })
    const text = (await notice.textContent())!
    expect(text).toContain('Este telão precisa do endereço do telão')
    expect(text).toContain('aba Evento, “Endereço do telão”')
    expect(text).toContain(`Painel dos noivos: ${new URL(server.url).host}/admin?aba=evento`)
    // Another poll (10 s) later it still says so, and never turned offline.
    const polled = page.waitForResponse(response => new URL(response.url()).pathname === '/api/gallery')
    await page.clock.runFor(11_000)
    await polled
    expect(await notice.isVisible()).toBe(true)
    expect(await screenState(page)).toEqual({ offline: 'false', id: null, offlineNotice: null, waiting: null })
    await screenshot(page, 'slideshow-needs-key-pin')
  })

  it('with the keyed address from the couple\'s panel, the same screen shows the photos through the PIN', async () => {
    const { screenKey } = (await api(server.url, '/api/admin/event', { cookie: server.cookie })).body as { screenKey: string }
    const page = await openScreen(`&chave=${screenKey}`)
    await page.waitForFunction(id => document.querySelector('[data-testid=slideshow]')?.getAttribute('data-id') === id, photoId, { timeout: 20_000 })
    expect(await page.locator('[data-testid=slideshow-needs-key]').count()).toBe(0)
    expect(await page.getAttribute('[data-testid=slideshow]', 'data-offline')).toBe('false')
  })

  it('with the gallery closed to guests, says so in the event\'s language (English) and Spanish', async () => {
    await patchEvent({ galleryPin: null, galleryMode: 'upload-only', language: 'en' })
    let page = await openScreen()
    let notice = page.locator('[data-testid=slideshow-needs-key]')
    await notice.waitFor({ timeout: 20_000 })
    expect(await notice.textContent()).toContain('This screen needs the screen address')
    expect(await notice.textContent()).toContain('Event tab, “Screen address”')
    expect(await screenState(page)).toEqual({ offline: 'false', id: null, offlineNotice: null, waiting: null })
    await context!.close()

    await patchEvent({ language: 'es' })
    page = await openScreen()
    notice = page.locator('[data-testid=slideshow-needs-key]')
    await notice.waitFor({ timeout: 20_000 })
    expect(await notice.textContent()).toContain('Esta pantalla necesita la dirección de la pantalla')
    expect(await notice.textContent()).toContain('pestaña Evento, “Dirección de la pantalla”')
    expect(await page.getAttribute('[data-testid=slideshow]', 'data-offline')).toBe('false')
  })

  it('a screen left open when the couple opens the gallery again starts showing the photos by itself', async () => {
    await patchEvent({ galleryMode: 'upload-only', language: 'pt-BR' })
    const page = await openScreen()
    await page.locator('[data-testid=slideshow-needs-key]').waitFor({ timeout: 20_000 })
    await patchEvent({ galleryMode: 'live' })
    // The next poll, without waiting the ten seconds for it.
    await page.clock.runFor(10_000)
    await page.waitForFunction(id => document.querySelector('[data-testid=slideshow]')?.getAttribute('data-id') === id, photoId, { timeout: 25_000 })
    expect(await page.locator('[data-testid=slideshow-needs-key]').count()).toBe(0)
  })
})
