// The venue screen saving its whole rotation ahead of its turn: what the
// service worker fetches after the slideshow's first load, how many items it holds offline after
// 40 s online, and how many different photos the screen then loops through with the network cut.
// Debian's Chromium through playwright-core against the built server, a TCP relay in front of it
// counting every byte the server sends (the worker's own fetches included). Run:
// npx tsx bench/slideshow-saving.ts (after `npm run build:canary`).
import { readFileSync } from 'node:fs'
import { createServer, connect, type Server } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { launchChromium } from '../tests/support/chromium'
import { api, login } from '../tests/support/http'
import { freePort } from '../tests/support/ports'
import { startServer } from '../tests/support/server'
import { guestUpload } from '../tests/support/guests'
import { inBatches } from '../tests/support/seed'
import { table, writeSection } from './lib'

const PHOTOS = 24
const ONLINE_MS = 40_000
const OFFLINE_MS = 60_000
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

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
  return { server, bytes: () => count, reset: () => (count = 0) }
}

async function derived(base: string) {
  const deadline = Date.now() + 10 * 60_000
  while ((await api(base, '/api/health')).body.derivationBacklog !== 0) {
    if (Date.now() > deadline) throw new Error('derivation backlog never drained')
    await new Promise(resolve => setTimeout(resolve, 200))
  }
}

/** Distinct photos on screen during `ms`, sampled every 250 ms. */
async function shownDuring(page: Page, ms: number): Promise<Set<string>> {
  const seen = new Set<string>()
  const end = Date.now() + ms
  while (Date.now() < end) {
    const id = await page.getAttribute('[data-testid=slideshow]', 'data-id')
    if (id) seen.add(id)
    await page.waitForTimeout(250)
  }
  return seen
}

async function main() {
  const relayPort = await freePort()
  const server = await startServer({ PUBLIC_BASE_URL: `http://127.0.0.1:${relayPort}` })
  const relay = await countingRelay(relayPort, server.port)
  const base = `http://127.0.0.1:${relayPort}`
  const browser = await launchChromium()
  try {
    const cookie = await login(server.url)
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie })
    if (patch.status !== 200) throw new Error(`event: ${patch.status}`)
    await inBatches(PHOTOS, 3, n => guestUpload(server.url, cookie, n + 1, { derived: false }))
    await derived(server.url)

    const context = await browser.newContext({ baseURL: base, viewport: { width: 1920, height: 1080 }, locale: 'pt-BR' })
    const page = await context.newPage()
    relay.reset()
    // The default pace (6 s a photo): in 40 s the screen shows about 7 of the 24.
    await page.goto('/galeria?slideshow=1', { waitUntil: 'load' })
    const firstLoad = relay.bytes()
    relay.reset()
    const shownOnline = await shownDuring(page, ONLINE_MS)
    const afterLoad = relay.bytes()
    const saved = Number(await page.getAttribute('[data-testid=slideshow]', 'data-cached'))
    const media = await page.evaluate(async () => {
      const cache = await caches.open('gallery-media')
      let bytes = 0
      const keys = await cache.keys()
      for (const request of keys) bytes += (await (await cache.match(request))!.blob()).size
      return { entries: keys.length, bytes }
    })
    await context.setOffline(true)
    const shownOffline = await shownDuring(page, OFFLINE_MS)
    await context.close()

    const worker = readFileSync(join(import.meta.dirname, '../.output/public/sw.js'))
    const rows = [[`${PHOTOS} approved photos, the default 6 s a photo`, kb(firstLoad), kb(afterLoad), `${shownOnline.size}`, `${saved} of ${PHOTOS} (${media.entries} images, ${kb(media.bytes)})`, `${shownOffline.size}`]]
    console.log(rows[0]!.join(' | '))
    writeSection('Venue screen: the whole rotation saved ahead', `
Measured by \`npx tsx bench/slideshow-saving.ts\` on the built server: Debian's Chromium, a
1920×1080 screen, a TCP relay counting every byte the server sent (the service worker's own
fetches included). The slideshow runs 40 s online, then the network is cut for 60 s.

${table(['event', 'first load (to the load event)', 'fetched in the next 40 s (worker install, polls, saving)', 'photos shown online', 'held offline after 40 s', 'different photos looped offline in 60 s'], rows)}

Before (the build that saved only what it showed, measured at the same pace by hand, not by this script): after 40 s
online the screen had saved 6 of 24, only what it had shown, and offline it cycled through 5. Now
the worker fetches every listed item's display image (or a video's poster) right after the first
poll, two at a time: the bytes after the load are its installation (the precache, about 120 KB
compressed, as before) and the whole rotation's display images (675 KB here, where before only
the shown ones came). These test pictures compress far better than a real phone's 300–600 KB
display images: a real party's 300 would be 90–180 MB, within the media cache's 250 MB bound.
Guest pages fetch nothing more: only the slideshow asks the worker to save. The worker's script
(\`.output/public/sw.js\`) is ${worker.length.toLocaleString('en')} bytes (${gzipSync(worker, { level: 9 }).length.toLocaleString('en')} gzipped) with the time limits, the saving and
the address rule.
`)
  }
  finally {
    await browser.close()
    relay.server.close()
    await server.stop()
  }
}

await main()
