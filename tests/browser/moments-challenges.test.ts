import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload } from '../support/guests'
import { photo, tempDir } from '../support/media'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The day in chapters and the couple's challenges, on a phone against the real server: a guest
 * answering a challenge from /enviar (and a file whose challenge was switched off meanwhile still
 * going, without it), /galeria narrowed to one moment by its chips, and the projector playing one moment.
 */
describe('moments and challenges on a phone', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let context: BrowserContext | undefined
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })

  beforeAll(async () => {
    expect((await admin('PATCH', '/api/admin/event', { moderation: 'post' })).status).toBe(200)
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  async function open(path: string): Promise<Page> {
    context = await pages.context('phone')
    const page = await context.newPage()
    await page.goto(path)
    return page
  }

  const challengeOf = async (id: string) => (await admin('PATCH', `/api/admin/uploads/${id}`, {})).body.challengeId
  /** The admin records of every confirmed upload, newest first. */
  const records = async () => (await admin('GET', '/api/admin/uploads?limit=200')).body.items as { id: string, fileName: string, challengeId: string | null }[]

  it('a guest taps a challenge card, picks a photo, and it answers that challenge; one switched off meanwhile goes without', async () => {
    const dir = tempDir()
    const [selfiePhoto, dancePhoto] = await Promise.all([photo(dir, 'SELFIE.jpg', 'Selfie', 20), photo(dir, 'DANCA.jpg', 'Dança', 200)])
    const selfie = (await admin('POST', '/api/admin/challenges', { text: 'Uma selfie com a noiva' })).body
    const danca = (await admin('POST', '/api/admin/challenges', { text: 'O passo de dança mais ousado' })).body

    const page = await open('/enviar')
    await page.locator('main[data-ready]').waitFor()
    const cards = page.locator('[data-testid=challenge]')
    await until(async () => (await cards.count()) === 2, 15_000, 'the challenge cards')
    expect(await cards.evaluateAll(els => els.map(el => [el.getAttribute('data-id'), el.textContent?.trim()]))).toEqual([
      [selfie.id, 'Uma selfie com a noiva'],
      [danca.id, 'O passo de dança mais ousado'],
    ])
    await expect.poll(() => page.locator('[data-testid=challenges-answered]').textContent()).toBe('0 de 2 desafios')

    // A tap on the card opens the chooser; the file picked there answers the card's challenge.
    const chooser = page.waitForEvent('filechooser')
    await page.locator(`[data-testid=challenge][data-id="${selfie.id}"] label`).click()
    await (await chooser).setFiles(selfiePhoto)
    await until(async () => (await page.locator('[data-testid=upload-item][data-state=done]').count()) === 1, 30_000, 'the selfie sent')
    const sent = (await records()).find(record => record.fileName === 'SELFIE.jpg')!
    expect(sent.challengeId).toBe(selfie.id)
    await expect.poll(() => page.locator('[data-testid=challenges-answered]').textContent()).toBe('1 de 2 desafios')
    expect(await page.locator(`[data-testid=challenge][data-id="${selfie.id}"]`).getAttribute('data-answered')).toBe('true')

    // The couple switches the other challenge off while the page still shows it: the photo picked
    // from its card is refused with it (400), and sent again without it rather than stuck.
    expect((await admin('PATCH', `/api/admin/challenges/${danca.id}`, { active: false })).status).toBe(200)
    const second = page.waitForEvent('filechooser')
    await page.locator(`[data-testid=challenge][data-id="${danca.id}"] label`).click()
    await (await second).setFiles(dancePhoto)
    await until(async () => (await page.locator('[data-testid=upload-item][data-state=done]').count()) === 2, 30_000, 'the dance photo sent')
    const dance = (await records()).find(record => record.fileName === 'DANCA.jpg')!
    expect(dance.challengeId).toBeNull()
    expect(await challengeOf(sent.id)).toBe(selfie.id)
  })

  it('/galeria shows the moments as chips, and a chip narrows the grid to that moment', async () => {
    const photos = []
    for (let n = 1; n <= 3; n++) photos.push(await guestUpload(server.url, server.cookie, n, { author: `Convidado ${n}`, derived: true }))
    const cerimonia = (await admin('POST', '/api/admin/moments', { name: 'Cerimônia' })).body
    const festa = (await admin('POST', '/api/admin/moments', { name: 'Festa' })).body
    expect((await admin('PATCH', `/api/admin/uploads/${photos[0]!.id}`, { momentId: cerimonia.id })).status).toBe(200)
    expect((await admin('POST', '/api/admin/uploads/bulk', { action: 'moment', momentId: festa.id, ids: [photos[1]!.id, photos[2]!.id] })).status).toBe(200)

    const page = await open('/galeria')
    const tiles = () => page.locator('[data-testid=gallery-item]').evaluateAll(els => els.map(el => el.getAttribute('data-id')))
    const chips = page.locator('[data-testid=moment-filter]')
    await until(async () => (await chips.count()) === 2, 15_000, 'the moment chips')
    expect(await chips.evaluateAll(els => els.map(el => [el.getAttribute('data-id'), el.textContent?.trim()]))).toEqual([
      [cerimonia.id, 'Cerimônia'],
      [festa.id, 'Festa'],
    ])
    const everything = await tiles()
    for (const sent of photos) expect(everything).toContain(sent.id)

    await page.locator(`[data-testid=moment-filter][data-id="${festa.id}"]`).click()
    await page.waitForURL(url => url.searchParams.get('momento') === festa.id)
    await expect.poll(tiles, { timeout: 15_000 }).toEqual([photos[2]!.id, photos[1]!.id])
    expect(await page.locator(`[data-testid=moment-filter][data-id="${festa.id}"]`).getAttribute('aria-current')).toBe('page')

    await page.locator(`[data-testid=moment-filter][data-id="${cerimonia.id}"]`).click()
    await expect.poll(tiles, { timeout: 15_000 }).toEqual([photos[0]!.id])

    await page.locator('[data-testid=moment-filter-all]').click()
    await expect.poll(async () => (await tiles()).length, { timeout: 15_000 }).toBe(everything.length)

    // Opened straight at a moment's address (as the chips' links are shared), the page is that moment's.
    const direct = await context!.newPage()
    await direct.goto(`/galeria?momento=${cerimonia.id}`)
    await expect.poll(() => direct.locator('[data-testid=gallery-item]').evaluateAll(els => els.map(el => el.getAttribute('data-id'))), { timeout: 15_000 }).toEqual([photos[0]!.id])

    // The projector set to one moment plays that moment only: slide after slide, its one photo.
    const screen = await context!.newPage()
    await screen.goto(`/galeria?slideshow=1&segundos=2&convite=0&recados=0&momento=${festa.id}`)
    const shown = new Set<string>()
    await until(async () => {
      const id = await screen.locator('[data-testid=slideshow]').getAttribute('data-id')
      if (id) shown.add(id)
      return shown.size >= 2
    }, 20_000, 'two slides of the moment')
    expect([...shown].sort()).toEqual([photos[1]!.id, photos[2]!.id].sort())
  })
})
