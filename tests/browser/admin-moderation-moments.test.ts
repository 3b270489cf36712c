import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm } from '../support/admin-browser'
import { guestUpload } from '../support/guests'
import { api } from '../support/http'
import { labelledJpeg } from '../support/media'
import { useTestServer } from '../support/suite/test-server'
import { uploadFile } from '../support/uploads'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The moderation list by moment and by challenge, against the real server: the selects narrow
 * the list (kept in the address), and the bulk bar moves a selection to a moment, the list
 * following at once (what no longer fits the moment shown leaves it).
 */
describe('admin: moderation by moment and challenge (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })
  const ids = { ceremony: '', party: [] as string[], answer: '' }
  let cerimonia = ''
  let festa = ''
  let selfie = ''
  let page: Page

  beforeAll(async () => {
    expect((await admin('PATCH', '/api/admin/event', { moderation: 'post' })).status).toBe(200)
    cerimonia = (await admin('POST', '/api/admin/moments', { name: 'Cerimônia' })).body.id
    festa = (await admin('POST', '/api/admin/moments', { name: 'Festa' })).body.id
    selfie = (await admin('POST', '/api/admin/challenges', { text: 'Uma selfie com a noiva' })).body.id
    ids.ceremony = (await guestUpload(server.url, server.cookie, 1, { author: 'Na cerimônia', derived: false })).id
    expect((await admin('PATCH', `/api/admin/uploads/${ids.ceremony}`, { momentId: cerimonia })).status).toBe(200)
    for (const n of [2, 3]) ids.party.push((await guestUpload(server.url, server.cookie, n, { author: `Na festa ${n}`, derived: false })).id)
    const bytes = await labelledJpeg(800, 600, 120, 'Selfie')
    const answer = await uploadFile(server.url, bytes, { fileName: 'SELFIE.jpg', contentType: 'image/jpeg', size: bytes.length, challengeId: selfie })
    expect(answer.confirm.status).toBe(200)
    ids.answer = answer.init.id

    page = (await pages.watched()).page
    await page.goto('/admin/login')
    await loginThroughForm(page)
  }, 120_000)

  const card = (id: string) => page.locator(`[data-testid=admin-upload][data-id="${id}"]`)
  const listed = () => page.locator('[data-testid=admin-upload]').evaluateAll(els => els.map(el => el.getAttribute('data-id')).sort())
  const sorted = (list: string[]) => [...list].sort()

  it('narrows the list to one moment, then to one challenge\'s answers, through the address', async () => {
    await page.goto('/admin?status=all')
    await page.locator('[data-testid=admin-uploads]').waitFor({ state: 'attached' })
    await expect.poll(listed, { timeout: 15_000 }).toEqual(sorted([ids.ceremony, ...ids.party, ids.answer]))

    const moment = page.locator('[data-testid=filter-moment]')
    expect(await moment.locator('option').allTextContents()).toEqual(['Todos os momentos', 'Cerimônia', 'Festa'])
    await moment.selectOption(cerimonia)
    await page.waitForURL(url => url.searchParams.get('momento') === cerimonia)
    await expect.poll(listed, { timeout: 15_000 }).toEqual([ids.ceremony])

    await moment.selectOption('')
    const challenge = page.locator('[data-testid=filter-challenge]')
    expect(await challenge.locator('option').allTextContents()).toEqual(['Todos os desafios', 'Uma selfie com a noiva'])
    await challenge.selectOption(selfie)
    await page.waitForURL(url => url.searchParams.get('desafio') === selfie && !url.searchParams.has('momento'))
    await expect.poll(listed, { timeout: 15_000 }).toEqual([ids.answer])

    // Opened at such an address (a reload, a shared link), the list is that one's.
    await page.goto(`/admin?status=all&momento=${cerimonia}`)
    await expect.poll(listed, { timeout: 15_000 }).toEqual([ids.ceremony])
    expect(await page.locator('[data-testid=filter-moment]').inputValue()).toBe(cerimonia)
  })

  it('moves the selected uploads to a moment from the bulk bar; what left the moment shown leaves the list', async () => {
    await page.goto(`/admin?status=all&momento=${cerimonia}`)
    await expect.poll(listed, { timeout: 15_000 }).toEqual([ids.ceremony])
    // Into the ceremony, from the whole list: the two party photos.
    await page.goto('/admin?status=all')
    await expect.poll(async () => (await listed()).length, { timeout: 15_000 }).toBe(4)
    for (const id of ids.party) await card(id).locator('[data-testid=select]').check()
    const moved = page.waitForResponse(response => new URL(response.url()).pathname === '/api/admin/uploads/bulk')
    await page.locator('[data-testid=bulk-moment]').selectOption(festa)
    const answer = await moved
    expect(answer.status()).toBe(200)
    expect(JSON.parse(answer.request().postData()!)).toEqual({ ids: expect.arrayContaining(ids.party), action: 'moment', momentId: festa })
    expect(await answer.json()).toMatchObject({ action: 'moment', notFound: [] })
    for (const id of ids.party) expect((await admin('PATCH', `/api/admin/uploads/${id}`, {})).body.momentId).toBe(festa)
    // The selection is done with; the select is back to its title for the next move.
    await until(async () => !(await page.locator('[data-testid=bulk-moment]').isVisible()), 10_000, 'the bulk bar idle')
    expect(await page.locator('[data-testid=bulk-moment]').inputValue()).toBe('')

    // Within the ceremony's list, one photo moved out to no moment leaves it at once.
    await page.goto(`/admin?status=all&momento=${cerimonia}`)
    await expect.poll(listed, { timeout: 15_000 }).toEqual([ids.ceremony])
    await card(ids.ceremony).locator('[data-testid=select]').check()
    const out = page.waitForResponse(response => new URL(response.url()).pathname === '/api/admin/uploads/bulk')
    await page.locator('[data-testid=bulk-moment]').selectOption({ label: 'Sem momento' })
    expect((await out).status()).toBe(200)
    await card(ids.ceremony).waitFor({ state: 'detached' })
    expect((await admin('PATCH', `/api/admin/uploads/${ids.ceremony}`, {})).body.momentId).toBeNull()
  })
})
