import { rmSync } from 'node:fs'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { photo, tempDir } from '../support/media'
import { launchBrowser, PHONE, phoneContext, until } from './support/browser'

/**
 * /enviar on a slow network (400 kbps, 400 ms round trip, CPU ×4): once the page says it listens,
 * a picked file gets its row. How soon is measured in bench/pick-to-row.ts, not asserted here.
 */
describe('/enviar: a file picked on a slow network (phone, real server)', () => {
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

  it('gets its row, thumbnail pending, once main[data-ready] is set; the sending code came in idle time before the pick, the queue\'s store unopened', async () => {
    context = await phoneContext(browser, server.url)
    const page = await context.newPage()
    const scripts: string[] = []
    page.on('requestfinished', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/_nuxt/') && pathname.endsWith('.js')) scripts.push(pathname)
    })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 })
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.goto('/enviar', { waitUntil: 'commit' })
    await page.locator('main[data-ready]').waitFor({ timeout: 30_000 })
    const atReady = scripts.length

    // Nothing asked for it: the page fetches the code that sends once it idles, without opening the queue's store.
    await until(() => scripts.length > atReady, 30_000, 'the sending code fetched in idle time')
    const queueDatabases = await page.evaluate(async () => (await indexedDB.databases()).map(db => db.name).filter(name => name?.startsWith('event-media-upload')))
    expect(queueDatabases).toEqual([])

    await page.setInputFiles('input[type=file]', [await photo(dir, 'LENTO.jpg', 'lento', 80, 4032, 3024)])
    const row = page.locator('[data-testid=upload-item][data-name="LENTO.jpg"]')
    await row.waitFor({ timeout: 10_000 })
    expect(await page.locator('main[data-ready]').count()).toBe(1)
    expect(await row.getAttribute('data-state')).toMatch(/^(queued|uploading|done)$/)
  }, 120_000)

  it('shows a picked file\'s row, waiting, while every script the HTML did not name is held back; the file goes once they arrive', async () => {
    // The worker is blocked so that every script the page asks for comes through the route below
    // (a worker's precache would answer some of them itself).
    context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR', serviceWorkers: 'block' })
    const page = await context.newPage()
    const html = await (await fetch(`${server.url}/enviar`)).text()
    const named = new Set([...html.matchAll(/\/_nuxt\/[\w.-]+\.js/g)].map(([path]) => path))
    expect(named.size).toBeGreaterThan(0)
    const held: (() => void)[] = []
    let holding = true
    await page.route('**/_nuxt/*.js', async (route) => {
      if (holding && !named.has(new URL(route.request().url()).pathname)) await new Promise<void>(resolve => held.push(resolve))
      await route.continue()
    })
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor({ timeout: 30_000 })
    // The idle-time fetch of the sending code has asked and waits.
    await until(() => held.length > 0, 30_000, 'the sending code asked for in idle time')

    await page.setInputFiles('input[type=file]', [await photo(dir, 'RETIDO.jpg', 'retido', 80, 1200, 900)])
    const row = page.locator('[data-testid=upload-item][data-name="RETIDO.jpg"]')
    await row.waitFor({ timeout: 10_000 })
    expect(await row.getAttribute('data-phase')).toBe('waiting')
    expect(await row.getAttribute('data-state')).toBe('queued')
    expect(held.length).toBeGreaterThan(0)

    holding = false
    for (const release of held.splice(0)) release()
    await page.locator('[data-testid=upload-item][data-name="RETIDO.jpg"][data-state=done]').waitFor({ timeout: 60_000 })
    expect(await page.locator('[data-testid=upload-item]').count()).toBe(1)
  }, 120_000)
})
