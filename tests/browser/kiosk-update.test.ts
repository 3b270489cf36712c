import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login } from '../support/http'
import { guestUpload } from '../support/guests'
import { ROOT, startServer, type TestServer } from '../support/server'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * A new deployment while the venue screen runs: the same address, the same database,
 * a build whose service worker differs (a copy of .output whose sw.js has a new revision of the
 * offline shell, as every rebuild gives it). The screen's worker finds the new one waiting, and the slideshow lets it
 * take over at a slide boundary: the page reloads by itself and goes on showing photos.
 */
describe('a new deployment reaches a running slideshow', () => {
  let before: TestServer | undefined
  let after: TestServer | undefined
  const pages = useBrowser()
  let context: BrowserContext | undefined
  const build = mkdtempSync(join(tmpdir(), 'event-media-next-build-'))
  let next = ''

  beforeAll(async () => {
    cpSync(join(ROOT, '.output'), build, { recursive: true })
    // The next build's shell has a new revision (the build time). Same length: Nitro serves its
    // public files with the size it recorded at build time.
    const worker = join(build, 'public/sw.js')
    const script = readFileSync(worker, 'utf8')
    const revision = /"url":"\/app-shell","revision":"(\d+)"|"revision":"(\d+)","url":"\/app-shell"/.exec(script)!
    const old = revision[1] ?? revision[2]!
    next = String(Number(old) + 1).padStart(old.length, '0')
    writeFileSync(worker, script.replace(`"${old}"`, `"${next}"`))
    // A new build's file has a new ETag too (the browser revalidates the worker's script with it).
    const bundle = join(build, 'server/chunks/nitro/nitro.mjs')
    const code = readFileSync(bundle, 'utf8')
    const tagged = code.replace(/("\/sw\.js": \{\s*"type": "[^"]*",\s*"etag": )"(?:[^"\\]|\\.)*"/, '$1"\\"next-deployment\\""')
    expect(tagged).not.toBe(code)
    writeFileSync(bundle, tagged)
    before = await startServer()
    const cookie = await login(before.url)
    expect((await api(before.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie })).status).toBe(200)
    for (let n = 1; n <= 3; n++) await guestUpload(before.url, cookie, n)
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    await before?.stop()
    await after?.stop()
    rmSync(build, { recursive: true, force: true })
  })

  it('reloads into the new worker between two photos, and goes on', async () => {
    context = await pages.context('desktop', { baseURL: before!.url })
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1&segundos=3')
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
    await until(async () => (await page.getAttribute('[data-testid=slideshow]', 'data-id')) !== null, 20_000, 'a photo')
    await page.evaluate(() => {
      (window as { beforeDeployment?: boolean }).beforeDeployment = true
    })

    await before!.stop()
    after = await startServer({ PORT: String(before!.port) }, before!.dir, join(build, 'server/index.mjs'))
    before = undefined
    // The page asks for a new worker every 15 minutes; the test asks now.
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then(registration => registration?.update()))

    await until(() => page.evaluate(() => !(window as { beforeDeployment?: boolean }).beforeDeployment).catch(() => false), 30_000, 'the page reloaded by itself')
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return { waiting: !!registration?.waiting, script: await (await fetch('/sw.js', { cache: 'no-store' })).text() }
    })
    expect(state.waiting).toBe(false)
    expect(state.script).toContain(`"${next}"`)
    await until(async () => (await page.getAttribute('[data-testid=slideshow]', 'data-id')) !== null, 20_000, 'a photo after the update')
  }, 120_000)
})
