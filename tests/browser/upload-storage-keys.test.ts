import { rmSync } from 'node:fs'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { uploadRows } from './support/db'
import { launchBrowser, phoneContext } from './support/browser'
import { photo, tempDir } from '../support/media'

/**
 * Phones that visited before the browser storage keys took one prefix: what they kept under the
 * earlier keys (a remembered name, the admin's choices, files still queued) is found after it.
 */
describe('browser storage kept under earlier keys', () => {
  const server = useTestServer()
  let browser: Browser
  let context: BrowserContext | undefined
  const dir = tempDir()

  beforeAll(async () => {
    browser = await launchBrowser()
  })

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await browser?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const stored = (keys: string[]) => keys.map(key => localStorage.getItem(key))

  it('moves a remembered name and the admin\'s choices to today\'s keys once, and /enviar shows the name', async () => {
    context = await phoneContext(browser, server.url)
    const page = await context.newPage()
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.evaluate(() => {
      localStorage.clear()
      localStorage.setItem('event-media:author', 'Vó Nina')
      localStorage.setItem('em-admin-view', 'dense')
      localStorage.setItem('em-admin-last-email', 'casal@example.com')
    })
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    expect(await page.inputValue('[name=author]')).toBe('Vó Nina')
    expect(await page.evaluate(stored, ['event-media-author', 'event-media-admin-view', 'event-media-admin-last-email', 'event-media:author', 'em-admin-view', 'em-admin-last-email']))
      .toEqual(['Vó Nina', 'dense', 'casal@example.com', null, null, null])
    // A name given since wins over an earlier version's, which goes either way.
    await page.evaluate(() => localStorage.setItem('event-media:author', 'Antigo'))
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    expect(await page.inputValue('[name=author]')).toBe('Vó Nina')
    expect(await page.evaluate(stored, ['event-media-author', 'event-media:author'])).toEqual(['Vó Nina', null])
    // Every key this app keeps has the one prefix.
    expect((await page.evaluate(() => Object.keys(localStorage))).filter(key => !key.startsWith('event-media-'))).toEqual([])
  })

  it('a file queued and not yet sent before the rename is resumed after it, with its words, and arrives once', async () => {
    context = await phoneContext(browser, server.url)
    // The server cannot be reached: the picked file stays queued on the phone.
    await context.route(url => url.pathname.startsWith('/api/uploads'), route => route.abort('internetdisconnected'))
    const page = await context.newPage()
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.fill('[name=author]', 'Tia Lu')
    await page.setInputFiles('input[type=file]', [await photo(dir, 'GUARDADA.jpg', 'guardada', 120)])
    await page.locator('[data-testid=upload-item][data-name="GUARDADA.jpg"]').waitFor()
    // Workbox keeps a database of its own under its own name (the service worker's cache expiry).
    const databases = () => page.evaluate(async () => (await indexedDB.databases()).map(db => db.name!).filter(name => !name.startsWith('workbox-')).sort())
    expect(await databases()).toEqual(['event-media-upload-files', 'event-media-upload-queue'])
    // The phone as an earlier version left it: the name under the old key.
    await page.evaluate(() => {
      localStorage.setItem('event-media:author', localStorage.getItem('event-media-author')!)
      localStorage.removeItem('event-media-author')
    })
    await page.close()
    expect(await uploadRows(server.dbPath)).toEqual([])

    await context.unrouteAll()
    const again = await context.newPage()
    await again.goto('/enviar')
    await again.locator('main[data-ready]').waitFor()
    const row = again.locator('[data-testid=upload-item][data-name="GUARDADA.jpg"]')
    await row.and(again.locator('[data-state=done]')).waitFor({ timeout: 30_000 })
    expect(await again.inputValue('[name=author]')).toBe('Tia Lu')
    const rows = await uploadRows(server.dbPath)
    expect(rows.map(({ file_name, author }) => ({ file_name, author }))).toEqual([{ file_name: 'GUARDADA.jpg', author: 'Tia Lu' }])
    expect(rows[0]!.confirmed_at).not.toBeNull()
  })
})
