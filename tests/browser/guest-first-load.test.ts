import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { photo, tempDir } from '../support/media'
import { namedByHtml } from '../support/first-load'
import { useTestServer } from '../support/suite/test-server'
import { scriptsByAudience } from '../support/scripts-by-audience'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * A guest's first load: /enviar carries what its first paint needs and no
 * more, the code that sends a picked file comes once the page idles, and the service worker a
 * guest's phone installs keeps the guest pages' code, never the admin's. The admin's code is
 * found by use: the scripts /admin/login and a signed-in /admin load that no guest page loads.
 * Sizes and timings are measured in bench/pages.ts, not asserted here.
 */
describe('a guest\'s first load', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  /** Found once: the admin's scripts and the guest pages' (support/browser.ts, scriptsByAudience). */
  let scripts: { admin: Set<string>, guest: Set<string> }
  const dir = tempDir()

  beforeAll(async () => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie: server.cookie })).status).toBe(200)
    scripts = await scriptsByAudience(pages.browser, server.url, server.cookie)
  }, 120_000)

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('hints no admin script and no other language on /enviar, and opens the queue\'s store only when a file is picked', async () => {
    const html = await (await fetch(`${server.url}/enviar`, { headers: { 'accept-language': 'pt-BR' } })).text()
    const hinted = [...html.matchAll(/<link rel="(?:modulepreload|prefetch)"[^>]*href="([^"]+\.js)"/g)].map(match => match[1]!)
    const { admin } = scripts
    expect(admin.size).toBeGreaterThan(0)
    expect(hinted.filter(script => admin.has(script))).toEqual([])
    // One language's texts: the English page's texts chunk is not among the Portuguese page's hints.
    const english = await (await fetch(`${server.url}/enviar`, { headers: { 'accept-language': 'en' } })).text()
    const englishHints = new Set([...english.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map(match => match[1]!))
    const portugueseOnly = [...new Set(hinted)].filter(script => !englishHints.has(script))
    expect(portugueseOnly.length).toBeGreaterThan(0)
    expect(html).not.toContain('/_i18n/')

    const context = await pages.context('phone')
    try {
      const page = await context.newPage()
      const loaded = new Set<string>()
      let eventAsked = 0
      page.on('request', (request) => {
        const { pathname } = new URL(request.url())
        if (pathname.startsWith('/_nuxt/') && pathname.endsWith('.js')) loaded.add(pathname)
        if (pathname === '/api/event') eventAsked++
      })
      await page.goto('/enviar', { waitUntil: 'networkidle' })
      await page.locator('main[data-ready]').waitFor()
      const beforePick = new Set(loaded)
      // The event's settings came with the HTML's payload: hydration asks the server nothing more.
      expect(eventAsked).toBe(0)
      // Nothing to resume on a first visit: the queue's store (and the code that runs it) was not even opened.
      const queueDatabases = () => page.evaluate(async () => (await indexedDB.databases()).map(db => db.name).filter(name => name?.startsWith('event-media-upload')).sort())
      expect(await queueDatabases()).toEqual([])
      await page.setInputFiles('input[type=file]', [await photo(dir, 'PRIMEIRA.jpg', 'primeira', 40)])
      await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
      expect(await queueDatabases()).toEqual(['event-media-upload-files', 'event-media-upload-queue'])
      // What shows only once a file is on the page (its progress, the outcome) was not part of the
      // first load: it came with the file. (The sending code itself comes once the page idles,
      // before any pick: upload-slow-network-pick.test.ts.)
      expect([...loaded].filter(script => !beforePick.has(script)).length).toBeGreaterThan(0)
    }
    finally {
      await context.close()
    }
  }, 120_000)

  it('names what /enviar needs before it answers a tap in one wave of requests, and hints V8 to compile the entry as it arrives', async () => {
    // modules/first-load-chunks.ts: more than six stylesheets and scripts would wait a second
    // round trip over HTTP/1.1 (562 ms on Slow 4G).
    for (const language of ['pt-BR', 'en', 'es']) {
      const html = await (await fetch(`${server.url}/enviar`, { headers: { 'accept-language': language } })).text()
      const named = namedByHtml(html)
      expect([...named].filter(url => url.endsWith('.js')).length, language).toBe(3)
      expect(named.size, language).toBeLessThanOrEqual(6)
      const entry = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1]
      const code = await (await fetch(`${server.url}${entry}`)).text()
      expect(code.startsWith('//# allFunctionsCalledOnLoad\n'), language).toBe(true)
    }
  })

  it('keeps the guest pages\' code in the phone\'s service worker, and none of the admin\'s', async () => {
    const { admin, guest } = scripts

    const context = await pages.context('phone')
    try {
      const page = await context.newPage()
      await page.goto('/enviar')
      await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
      const precached = await until(async () => {
        const paths = await page.evaluate(async () => {
          const names = (await caches.keys()).filter(name => name.includes('precache'))
          const keys = (await Promise.all(names.map(async name => (await caches.open(name)).keys()))).flat()
          return keys.map(request => new URL(request.url).pathname)
        })
        return paths.length > 0 && paths.some(path => path.endsWith('.js')) ? paths : null
      }, 30_000, 'the precache filled')
      const kept = new Set(precached.filter(path => path.endsWith('.js')))
      expect([...admin].filter(script => kept.has(script))).toEqual([])
      // Every script a guest page loads is kept: the pages open offline.
      expect([...guest].filter(script => !kept.has(script))).toEqual([])
    }
    finally {
      await context.close()
    }
  }, 120_000)
})
