import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { fromAddress, inParallel } from '../support/loopback'
import { expectAccessible } from './support/axe'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

const clockFile = join(mkdtempSync(join(tmpdir(), 'pin-clock-')), 'now')
/** 23:00 UTC: 20:00 in São Paulo, the page's time zone. */
const T0 = Date.UTC(2026, 11, 12, 23, 0, 0)
writeFileSync(clockFile, String(T0))

describe('the Event tab tells the admin when the gallery PIN is being guessed (browser)', () => {
  const server = useTestServer({ admin: true, env: { TEST_CLOCK_FILE: clockFile } })
  const pages = useBrowser({ server })
  let watched: WatchedPage
  let page: Page

  const setPin = async (galleryPin: string) => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { galleryPin }, cookie: server.cookie })).status).toBe(200)
  }
  /** `count` wrong PINs from a crowd of addresses, 5 each: all checked while the budget lasts. */
  const guess = (count: number, block: number) => inParallel(count, 24, i => fromAddress(server.url, '/api/gallery/unlock', {
    from: `127.${block}.${Math.floor(i / 5)}.1`,
    method: 'POST',
    json: { pin: String(1000 + i) },
  }))
  const notice = () => page.locator('[data-testid=pin-guesses]')

  /** Opens the tab and waits for the budget's answer, so that no notice means none was due. */
  async function openEventTab() {
    const answered = page.waitForResponse(response => response.url().endsWith('/api/admin/event/pin-guesses') && response.status() === 200)
    await page.goto('/admin?aba=evento')
    await answered
    await page.locator('[data-testid=event-form]').waitFor()
  }

  beforeAll(async () => {
    await setPin('2468')
    watched = await pages.watched()
    page = watched.page
    await page.goto('/admin/login?redirect=/admin?aba=evento')
    await loginThroughForm(page)
    await page.locator('[data-testid=event-form]').waitFor()
  })

  it('says nothing while guests merely mistype', async () => {
    expect((await guess(49, 10)).map(answer => answer.status)).toEqual(Array(49).fill(403))
    await openEventTab()
    expect(await notice().count()).toBe(0)
  })

  it('from 50 wrong PINs in the hour: how many, of how many, and a longer PIN', async () => {
    expect((await guess(11, 11)).map(answer => answer.status)).toEqual(Array(11).fill(403))
    await openEventTab()
    await notice().waitFor()
    expect(await notice().getAttribute('data-state')).toBe('spending')
    expect(await notice().getAttribute('role')).toBe('status')
    expect(await notice().textContent()).toContain('60 tentativas erradas na última hora, de no máximo 200 por hora')
    expect(await page.locator('[data-testid=pin-guesses-suggestion]').textContent()).toContain('PIN mais longo (6 números ou mais)')
  })

  it('once the 200 are spent, without a reload: until when new guests are shut out (the admin\'s own time), as an alert; no suggestion for 6 digits', async () => {
    const answers = await guess(200, 12)
    expect(answers.filter(answer => answer.status === 403)).toHaveLength(140)
    expect(answers.filter(answer => answer.status === 429)).toHaveLength(60)
    // The tab stays open from the test before: the notice turns within a poll (15 s).
    await page.locator('[data-testid=pin-guesses][data-state=spent]').waitFor({ timeout: 25_000 })
    expect(await notice().getAttribute('role')).toBe('alert')
    // T0 + 1 h is 21:00 in São Paulo.
    expect(await notice().textContent()).toContain('Até 12/12, 21:00, quem ainda não abriu a galeria não consegue abrir, nem com o PIN certo.')
    expect(await page.locator('[data-testid=pin-guesses-suggestion]').count()).toBe(1)
    await expectAccessible(page, 'admin event tab with the PIN budget spent')

    await setPin('246813')
    await openEventTab()
    await notice().waitFor()
    expect(await notice().getAttribute('data-state')).toBe('spent')
    expect(await page.locator('[data-testid=pin-guesses-suggestion]').count()).toBe(0)
  })

  it('an hour after the last guesses, the notice is gone', async () => {
    writeFileSync(clockFile, String(T0 + 60 * 60 * 1000))
    await openEventTab()
    expect(await notice().count()).toBe(0)
  })
})
