// The venue kiosk's service worker: what the guest pages and the slideshow cost over the
// network with the worker (a first visit, which also installs it, and a second visit served from
// its caches) against the same visits without it; and how big its caches grow after 500 photos.
// Debian's Chromium through playwright-core against the built server. Run: npx tsx bench/kiosk.ts
// (after `npx nuxt build`). A separate script from bench/pages.ts, whose run rewrites the "Guest pages
// weight" section with its slow-4G timings.
import { createServer, connect, type Server } from 'node:net'
import { rmSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from '../tests/support/chromium'
import { api, login } from '../tests/support/http'
import { freePort } from '../tests/support/ports'
import { startServer } from '../tests/support/server'
import { guestUpload } from '../tests/support/guests'
import { inBatches } from '../tests/support/seed'
import { table, writeSection } from './lib'

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR' }
const SCREEN = { viewport: { width: 1920, height: 1080 }, locale: 'pt-BR' }
const PAGES = ['/', '/enviar', '/galeria', '/galeria?slideshow=1'] as const
const FIRST_SEED = 30
const PHOTOS = 500

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * A TCP relay in front of the server that counts every byte the server sends, whoever asked
 * (the page or its service worker, whose requests a page's CDP session does not see).
 */
async function countingRelay(port: number, target: number): Promise<{ server: Server, bytes: () => number, reset: () => void }> {
  let count = 0
  const server = createServer((socket) => {
    const upstream = connect(target, '127.0.0.1')
    upstream.on('data', (chunk: Buffer) => {
      count += chunk.length
    })
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  })
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve))
  const reset = () => {
    count = 0
  }
  return { server, bytes: () => count, reset }
}

/** Until the server has made every photo's display image (a busy machine takes longer than the tests' 20 s). */
async function derived(base: string) {
  const deadline = Date.now() + 10 * 60_000
  for (;;) {
    const health = await api(base, '/api/health')
    if (health.body.derivationBacklog === 0) return
    if (Date.now() > deadline) throw new Error(`derivation backlog never drained: ${JSON.stringify(health.body)}`)
    await new Promise(resolve => setTimeout(resolve, 200))
  }
}

async function controlled(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 60_000, polling: 200 })
}

/** Until the network is quiet; the slideshow never is (it loads photos), so it gets a fixed time. */
async function settle(page: Page, path: string) {
  if (path.includes('slideshow')) await page.waitForTimeout(6000)
  else await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1500)
}

async function visits(browser: Browser, base: string, relay: { bytes: () => number, reset: () => void }, path: string, worker: boolean) {
  const context: BrowserContext = await browser.newContext({ baseURL: base, ...(path.includes('slideshow') ? SCREEN : PHONE), serviceWorkers: worker ? 'allow' : 'block' })
  try {
    const page = await context.newPage()
    relay.reset()
    await page.goto(path)
    if (worker) await controlled(page)
    await settle(page, path)
    const first = relay.bytes()
    relay.reset()
    await page.goto(path)
    await settle(page, path)
    return { first, second: relay.bytes() }
  }
  finally {
    await context.close()
  }
}

/** The worker's caches after the slideshow went through the newest 500 photos once. */
async function cacheAfterPhotos(browser: Browser, base: string) {
  const context = await browser.newContext({ baseURL: base, ...SCREEN })
  try {
    const page = await context.newPage()
    await page.goto('/galeria?slideshow=1')
    await controlled(page)
    // What the slideshow and the gallery would fetch over hours, at once: every page of the
    // gallery answer, and each photo's display image and thumbnail, through the worker.
    await page.evaluate(async () => {
      let cursor: string | null = null
      const urls: string[] = []
      do {
        const answer = await (await fetch(`/api/gallery?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json() as { items: { url: string, thumbUrl: string | null }[], nextCursor: string | null }
        for (const item of answer.items) urls.push(item.url, ...(item.thumbUrl ? [item.thumbUrl] : []))
        cursor = answer.nextCursor
      } while (cursor)
      // (Inline arrows only: tsx names function constants with a helper the page does not have.)
      for (let i = 0; i < urls.length; i += 16) {
        await Promise.all(urls.slice(i, i + 16).map(src => new Promise<void>((resolve) => {
          const image = new Image()
          image.onload = image.onerror = () => resolve()
          image.src = src
        })))
      }
    })
    await page.waitForTimeout(3000)
    return await page.evaluate(async () => {
      const caches_: { name: string, entries: number, bytes: number }[] = []
      for (const name of await caches.keys()) {
        const cache = await caches.open(name)
        let bytes = 0
        const keys = await cache.keys()
        for (const request of keys) bytes += (await (await cache.match(request))!.blob()).size
        caches_.push({ name, entries: keys.length, bytes })
      }
      const estimate = await navigator.storage.estimate()
      return { caches: caches_, usage: estimate.usage ?? 0 }
    })
  }
  finally {
    await context.close()
  }
}

async function main() {
  const relayPort = await freePort()
  // Media addresses in the answers name the relay, so every byte goes through it.
  const server = await startServer({ PUBLIC_BASE_URL: `http://127.0.0.1:${relayPort}` })
  const relay = await countingRelay(relayPort, server.port)
  const base = `http://127.0.0.1:${relayPort}`
  const browser = await launchChromium()
  try {
    const cookie = await login(server.url)
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie })
    if (patch.status !== 200) throw new Error(`event: ${patch.status}`)
    await inBatches(FIRST_SEED, 3, n => guestUpload(server.url, cookie, n + 1, { derived: false }))
    await derived(server.url)

    const rows: (string | number)[][] = []
    for (const path of PAGES) {
      const without = await visits(browser, base, relay, path, false)
      const withWorker = await visits(browser, base, relay, path, true)
      rows.push([path, kb(without.first), kb(without.second), kb(withWorker.first), kb(withWorker.second)])
      console.log(`${path}: without worker ${kb(without.first)} then ${kb(without.second)}; with worker ${kb(withWorker.first)} then ${kb(withWorker.second)}`)
    }

    const started = Date.now()
    await inBatches(PHOTOS - FIRST_SEED, 4, n => guestUpload(server.url, cookie, FIRST_SEED + n + 1, { derived: false }))
    await derived(server.url)
    console.log(`seeded ${PHOTOS} photos in ${Math.round((Date.now() - started) / 1000)} s`)
    const filled = await cacheAfterPhotos(browser, base)
    for (const cache of filled.caches) console.log(`${cache.name}: ${cache.entries} entries, ${mb(cache.bytes)}`)
    console.log(`storage estimate: ${mb(filled.usage)}`)

    writeSection('Venue kiosk: the service worker', `
Bytes the server sent (a TCP relay in front of it counts everything, the service worker's own
requests included), Debian's Chromium via playwright-core against the built server, an event of
${FIRST_SEED} approved photos (phone-sized JPEGs, derived). Guest pages on a phone (390×844), the
slideshow on a 1920×1080 screen. "First visit" starts from an empty profile and, with the worker,
includes its installation (the precache of the build's scripts, styles, icons and the offline
shell, and the first answers); "second visit" navigates to the same page again in the same
profile: without the worker, what the browser's HTTP cache leaves to fetch (revalidations
included); with it, the page itself (network first) and what its caches do not hold. The
slideshow is measured over its first 6 s of photos.

${table(['page', 'no worker: first visit', 'no worker: second visit', 'worker: first visit (installs it)', 'worker: second visit'], rows)}

The worker's first visit costs about 105–120 KB more: it precaches every script and style of the
build (34 files, 496 KB uncompressed, sent compressed), the other pages' and the admin's chunks
included, so that any guest page opens offline afterwards. A second visit costs the same with or
without it: the build's files are immutable and the browser's HTTP cache already kept them; what
the worker adds is that the pages open, and show what they had, with no network at all.

The worker's caches after ${PHOTOS} approved photos: the slideshow's page, then every gallery page
and each photo's display image and thumbnail fetched once through the worker (what a night of
slideshow and gallery visits would fetch). The media cache is capped at 700 entries (the newest
300 the slideshow rotates, with their thumbnails, and some; the least recently used go first)
and at 250 MB of bodies (the earliest kept go first).

${table(['cache', 'entries', 'size (bodies)'], filled.caches.map(cache => [cache.name.startsWith('workbox-precache') ? 'workbox-precache (the build)' : cache.name, cache.entries, mb(cache.bytes)]))}

\`navigator.storage.estimate().usage\` for the origin: ${mb(filled.usage)}.

These photos are drawn test pictures (a colour and a number), whose 2048 px display images
compress far better than real ones: a real phone photo's display image weighs 300–600 KB (see
the 3× phone section's cover above), so the same 700 entries of a real party would be about 120–200 MB (300
display images and 400 thumbnails), under the 250 MB bound. A screen whose browser grants the
origin less storage loses the media cache on a quota error (\`purgeOnQuotaError\`), not the shell.
`)
  }
  finally {
    await browser.close()
    relay.server.close()
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

await main()
