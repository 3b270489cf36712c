// Weight of the guest pages: bytes and JavaScript a phone downloads on a first visit of
// /, /enviar and /galeria, and how soon /enviar answers a tap under Chrome DevTools' "Slow 4G"
// with the CPU slowed four times. Debian's Chromium through playwright-core, against the built
// server with a realistic event (a cover, 30 uploads). Run: npm run bench -- pages (or npx tsx bench/pages.ts).
// Also what / and /galeria cost a 3× phone, by kind of bytes, and what the
// service worker downloads after /enviar's first load. `--before <dir>` measures another build's
// `.output` (e.g. main's) the same way, for before/after tables:
// npx tsx bench/pages.ts --before ../main/.output (a path from the current directory)
import { readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser, CDPSession } from 'playwright-core'
import { launchChromium } from '../tests/support/chromium'
import { api, login } from '../tests/support/http'
import { ROOT, startServer } from '../tests/support/server'
import { namedByHtml } from '../tests/support/first-load'
import { seedGallery } from '../tests/support/guests'
import { scriptsByAudience } from '../tests/support/scripts-by-audience'
import { table, writeSection } from './lib'

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR' }
/** The densest common phone screens: 3× (an iPhone 12–15, most recent Androids). */
const PHONE_3X = { ...PHONE, deviceScaleFactor: 3 }
const PAGES = ['/', '/enviar', '/galeria'] as const
const MEDIA_PAGES = ['/', '/galeria'] as const
const PUBLIC_DIR = join(ROOT, '.output/public')
const TTI_RUNS = 7
/** /enviar's first-load budget on the throttled phone: gzipped JavaScript, and time until a tap is answered. */
const BUDGET_JS_GZIP = 100 * 1024
const BUDGET_TTI_MS = 2000
/** How long the service worker is given to finish its precache after the page's first load. */
const WORKER_SETTLE_MS = 8000

// Chrome DevTools' "Slow 4G" preset, as DevTools itself computes it.
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9,
  uploadThroughput: (750 * 1000) / 8 * 0.9,
}
const CPU_SLOWDOWN = 4
/**
 * Chromium would also offer br and zstd; the budget is stated in gzip, so the browser asks for
 * gzip alone (brotli would only make the files smaller).
 */
const ACCEPT_GZIP = { 'accept-encoding': 'gzip' }

interface Loaded {
  url: string
  mimeType: string
  /** Bytes on the wire, headers included (CDP's encodedDataLength at loadingFinished). */
  wire: number
  /** What the server answered with for Content-Encoding (none: sent as is). */
  encoding: string
}

interface ScriptWeight {
  path: string
  /** Every request for it added up (a prefetch, then the import served from that copy). */
  wire: number
  encoding: string
  /** The file as the build wrote it, and that file through zlib gzip level 6. */
  raw: number
  gzip: number
}

interface PageWeight {
  path: string
  requests: number
  wire: number
  js: ScriptWeight[]
}

/** `--before <dir>`: another build's `.output` to measure on the 3× phone as well. */
function beforeOutput(flag = '--before'): string | null {
  return beforeOutputs(flag)[0] ?? null
}

/** Every `<flag> <dir>` given, in order (`--first-load-before` may name several builds). */
function beforeOutputs(flag: string): string[] {
  return process.argv.flatMap((arg, at) => (arg === flag && process.argv[at + 1] ? [resolve(process.argv[at + 1]!)] : []))
}

/** A build's folder as the results name it: from the repository's root, the same in any clone. */
const shown = (dir: string) => relative(ROOT, dir)

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (value: number) => `${Math.round(value)} ms`
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Every request of a page load as CDP reports it, so sizes are what really crossed the wire. */
function recordNetwork(cdp: CDPSession): Map<string, Loaded> {
  const loaded = new Map<string, Loaded>()
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]))
    loaded.set(event.requestId, { url: event.response.url, mimeType: event.response.mimeType, wire: 0, encoding: headers['content-encoding'] ?? 'none' })
  })
  cdp.on('Network.loadingFinished', (event) => {
    const entry = loaded.get(event.requestId)
    if (entry) entry.wire = event.encodedDataLength
  })
  return loaded
}

/**
 * Scripts are counted by file, whatever asked for them: a module preload, a `<link rel=prefetch>`
 * (Chromium then serves the import from that copy, with nothing on the wire) or NuxtLink
 * prefetching the page behind a link on screen. All of it is downloaded on the first visit.
 */
function scriptWeights(entries: Loaded[], publicDir = PUBLIC_DIR): ScriptWeight[] {
  const byPath = new Map<string, ScriptWeight>()
  for (const entry of entries) {
    const path = new URL(entry.url).pathname
    if (!entry.mimeType.includes('javascript') && !path.endsWith('.js')) continue
    const known = byPath.get(path)
    if (known) {
      known.wire += entry.wire
      if (entry.wire > 0) known.encoding = entry.encoding
      continue
    }
    const file = readFileSync(join(publicDir, path))
    byPath.set(path, { path, wire: entry.wire, encoding: entry.encoding, raw: file.length, gzip: gzipSync(file, { level: 6 }).length })
  }
  return [...byPath.values()]
}

/** One first visit from an empty profile: every response the page loaded (data: URLs aside), with its bytes on the wire. */
async function firstVisit(browser: Browser, base: string, path: string, device: typeof PHONE | typeof PHONE_3X): Promise<Loaded[]> {
  const context = await browser.newContext({ ...device, baseURL: base })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setExtraHTTPHeaders', { headers: ACCEPT_GZIP })
    const loaded = recordNetwork(cdp)
    await page.goto(path, { waitUntil: 'networkidle' })
    return [...loaded.values()].filter(entry => !entry.url.startsWith('data:'))
  }
  finally {
    await context.close()
  }
}

async function firstLoad(browser: Browser, base: string, path: string, publicDir = PUBLIC_DIR): Promise<PageWeight> {
  const entries = await firstVisit(browser, base, path, PHONE)
  const fromNetwork = entries.filter(entry => entry.wire > 0)
  return { path, requests: fromNetwork.length, wire: fromNetwork.reduce((sum, entry) => sum + entry.wire, 0), js: scriptWeights(entries, publicDir) }
}

interface WorkerWeight {
  requests: number
  /** Bytes on the wire (headers and body, in the encoding Chromium asked for: br). */
  wire: number
  /** The precache list the worker was built with, and its files' size as built. */
  precached: number
  precachedRaw: number
  /** Precached scripts that only the admin's pages load (adminScripts below): kept on a guest's phone for nothing. */
  adminScripts: number
}

/**
 * What the service worker downloads on a guest's phone after /enviar's first load: a first visit
 * from an empty profile, then WORKER_SETTLE_MS for the worker to install and fill its precache.
 * Requests the worker makes are Playwright's context events with `serviceWorker()` set.
 */
async function workerLoad(browser: Browser, base: string, publicDir = PUBLIC_DIR): Promise<WorkerWeight> {
  const { admin } = await scriptsByAudience(browser, base, await login(base))
  const context = await browser.newContext({ ...PHONE, baseURL: base })
  const sizes: Promise<number>[] = []
  context.on('requestfinished', (request) => {
    if (request.serviceWorker()) sizes.push(request.sizes().then(size => size.responseHeadersSize + size.responseBodySize, () => 0))
  })
  try {
    const page = await context.newPage()
    await page.goto('/enviar', { waitUntil: 'networkidle' })
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    await page.waitForTimeout(WORKER_SETTLE_MS)
    const wire = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0)
    const worker = readFileSync(join(publicDir, 'sw.js'), 'utf8')
    // Workbox's list as injected: {"revision":…,"url":"_nuxt/…"}; the offline shell (/app-shell) is a page, not a file.
    const urls = [...worker.matchAll(/"url":"([^"]+)"/g)].map(match => match[1]!).filter(url => !url.startsWith('/'))
    const files = urls.map(url => readFileSync(join(publicDir, url)))
    return {
      requests: sizes.length,
      wire,
      precached: urls.length,
      precachedRaw: files.reduce((sum, file) => sum + file.length, 0),
      adminScripts: urls.filter(url => admin.has(`/${url}`)).length,
    }
  }
  finally {
    await context.close()
  }
}

interface MediaWeight {
  path: string
  requests: number
  wire: number
  images: number
  imageRequests: number
  video: number
  videoRequests: number
  scripts: number
}

/** One first visit on the 3× phone, its bytes sorted by kind (videos fetched by a page show up here). */
async function mediaLoad(browser: Browser, base: string, path: string): Promise<MediaWeight> {
  const entries = (await firstVisit(browser, base, path, PHONE_3X)).filter(entry => entry.wire > 0)
  const isVideo = (entry: Loaded) => entry.mimeType.startsWith('video/') || /\.(mp4|mov|webm)$/.test(new URL(entry.url).pathname)
  const images = entries.filter(entry => entry.mimeType.startsWith('image/'))
  const videos = entries.filter(isVideo)
  const sum = (list: Loaded[]) => list.reduce((total, entry) => total + entry.wire, 0)
  return {
    path,
    requests: entries.length,
    wire: sum(entries),
    images: sum(images),
    imageRequests: images.length,
    video: sum(videos),
    videoRequests: videos.length,
    scripts: sum(entries.filter(entry => entry.mimeType.includes('javascript'))),
  }
}

/** A server of `entry`'s build with the same realistic event: a cover and 30 uploads. */
async function seededServer(entry?: string) {
  const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' }, undefined, entry)
  const cookie = await login(server.url)
  await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12', moderation: 'post' }, cookie })
  const items = await seedGallery(server.url, cookie, 30)
  const cover = items.find(item => item.kind === 'photo')!
  const set = await api(server.url, `/api/admin/uploads/${cover.id}/cover`, { method: 'POST', cookie })
  if (set.status !== 200) throw new Error(`cover: ${set.status}`)
  return server
}

/**
 * Navigation start to the moment the file input is enabled and the page has hydrated (the page
 * sets `data-ready` on its <main> when mounted, after the upload queue started).
 */
interface InteractiveRun {
  interactive: number
  fcp: number
  html: number
  /** The last script the page had before it was interactive: from there on the time is the CPU's. */
  scripts: number
}

/**
 * `encoding`: 'gzip' sends `accept-encoding: gzip` alone, as the budget is stated; 'browser' leaves
 * Chromium's own header (br, gzip, deflate, zstd), and the server answers with its .br files.
 */
async function timeToInteractive(browser: Browser, base: string, encoding: 'gzip' | 'browser' = 'gzip'): Promise<InteractiveRun> {
  const context = await browser.newContext({ ...PHONE, baseURL: base })
  try {
    const page = await context.newPage()
    // A string, not a function: tsx would wrap named functions in a helper the page does not have.
    await page.addInitScript({ content: `
      new MutationObserver((records, observer) => {
        const input = document.querySelector('input[type=file]')
        if (document.querySelector('main[data-ready]') && input && !input.disabled) {
          window.interactiveAt = performance.now()
          observer.disconnect()
        }
      }).observe(document, { subtree: true, childList: true, attributes: true })
    ` })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    if (encoding === 'gzip') await cdp.send('Network.setExtraHTTPHeaders', { headers: ACCEPT_GZIP })
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await page.goto('/enviar', { waitUntil: 'commit' })
    await page.waitForFunction(() => (window as unknown as { interactiveAt?: number }).interactiveAt !== undefined, undefined, { timeout: 60_000, polling: 100 })
    return page.evaluate(() => ({
      interactive: (window as unknown as { interactiveAt: number }).interactiveAt,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      html: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd,
      scripts: Math.max(0, ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter(entry => new URL(entry.name).pathname.endsWith('.js') && entry.responseEnd <= (window as unknown as { interactiveAt: number }).interactiveAt)
        .map(entry => entry.responseEnd)),
    }))
  }
  finally {
    await context.close()
  }
}

async function main() {
  const before = beforeOutput()
  const server = await seededServer()
  const browser = await launchChromium()
  try {
    // Does the server compress its scripts when asked? (Nitro's node server serves precompressed
    // files only when the build made them: `compressPublicAssets`.)
    const probe = await fetch(`${server.url}/enviar`, { headers: { 'accept-encoding': 'gzip' } })
    const script = /<script[^>]+src="(\/_nuxt\/[^"]+\.js)"/.exec(await probe.text())?.[1]
    const scriptProbe = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip' } })
    const compressesJs = scriptProbe.headers.get('content-encoding') ?? 'none'
    await scriptProbe.arrayBuffer()

    const weights: PageWeight[] = []
    for (const path of PAGES) weights.push(await firstLoad(browser, server.url, path))
    const media: { build: string, weight: MediaWeight }[] = []
    for (const path of MEDIA_PAGES) media.push({ build: 'this build', weight: await mediaLoad(browser, server.url, path) })
    if (before) {
      const old = await seededServer(join(before, 'server/index.mjs'))
      try {
        for (const path of MEDIA_PAGES) media.push({ build: `before (${shown(before)})`, weight: await mediaLoad(browser, old.url, path) })
      }
      finally {
        await old.stop()
        rmSync(old.dir, { recursive: true, force: true })
      }
    }
    const runs: InteractiveRun[] = []
    const brotliRuns: InteractiveRun[] = []
    // The machine's own load, said beside the timings: on a shared 2-core box it moves them by a second.
    const loadBefore = loadavg()[0]!
    for (let i = 0; i < TTI_RUNS; i++) {
      runs.push(await timeToInteractive(browser, server.url))
      brotliRuns.push(await timeToInteractive(browser, server.url, 'browser'))
    }
    const loadAfter = loadavg()[0]!

    const enviar = weights.find(weight => weight.path === '/enviar')!
    const worker = await workerLoad(browser, server.url)
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)
    const jsWire = (weight: PageWeight) => sum(weight.js.map(file => file.wire))
    const jsRaw = (weight: PageWeight) => sum(weight.js.map(file => file.raw))
    const jsGzip = (weight: PageWeight) => sum(weight.js.map(file => file.gzip))
    const encodings = (weight: PageWeight) => [...new Set(weight.js.map(file => file.encoding))].join(', ')
    const tti = median(runs.map(run => run.interactive))
    const ttiBrotli = median(brotliRuns.map(run => run.interactive))
    const verdict = (ok: boolean) => (ok ? 'within' : '**over**')
    const served = compressesJs === 'gzip'
      ? `the server answered scripts with \`content-encoding: gzip\`: the build writes a .gz (and .br) beside
each script and style (\`nitro.compressPublicAssets\`), and Nitro's node server sends it to browsers
that accept it (it compresses nothing on the fly: the server-rendered HTML goes as is). Scripts under
1 KB are not worth compressing and go as is. "JS transferred" below is what really crossed the wire.`
      : `the server answered scripts with \`content-encoding: ${compressesJs}\`: Nitro's node server only serves
precompressed files and this build makes none, so scripts cross the wire uncompressed.`

    writeSection('Guest pages weight', `
First visit of each page on a phone (390×844, empty cache), Debian's Chromium via playwright-core,
against the built server (\`node .output/server/index.mjs\`) with a cover and 30 uploads (photos
derived, videos with posters). Every request carries \`accept-encoding: gzip\` (set through CDP), and
${served} Sizes on the wire include HTTP headers (CDP's \`encodedDataLength\`).
Scripts are counted by file whatever fetched them: module preloads, \`<link rel=prefetch>\` of other
pages' chunks, and NuxtLink prefetching the pages behind the links on screen (on \`/\`, /enviar's and
/galeria's). The last JS column is a cross-check, **computed** here: each script file as built,
through zlib gzip level 6.

${table(['page', 'requests', 'bytes transferred (all)', 'JS transferred (gzip, on the wire)', 'JS uncompressed', 'JS gzip computed with zlib', 'scripts (content-encoding)'], weights.map(weight => [
  weight.path, weight.requests, kb(weight.wire), kb(jsWire(weight)), kb(jsRaw(weight)), kb(jsGzip(weight)), `${weight.js.length} (${encodings(weight)})`,
]))}

/enviar under Chrome DevTools' "Slow 4G" (latency 150 ms × 3.75 = 562.5 ms, down 1.6 Mbps × 0.9 =
180 KB/s, up 750 kbps × 0.9 = 84.4 KB/s, \`Network.emulateNetworkConditions\`) and
\`Emulation.setCPUThrottlingRate\` ×${CPU_SLOWDOWN}, ${TTI_RUNS} cold loads with gzip alone and ${TTI_RUNS} with Chromium's own
\`accept-encoding\` (it asks for br, and the server has a .br of each script), taken in turn;
interactive = from navigation start until the file input is enabled and the page has hydrated
(\`main[data-ready]\`, set on mount). The machine's 1-minute load average was ${loadBefore.toFixed(1)} before these
runs and ${loadAfter.toFixed(1)} after (2 cores).

${table(['measure', 'median', 'worst', 'target'], [
  ['HTML received', ms(median(runs.map(run => run.html))), ms(Math.max(...runs.map(run => run.html))), ''],
  ['first contentful paint', ms(median(runs.map(run => run.fcp))), ms(Math.max(...runs.map(run => run.fcp))), ''],
  ['last script received', ms(median(runs.map(run => run.scripts))), ms(Math.max(...runs.map(run => run.scripts))), ''],
  ['interactive (file input enabled, hydrated)', ms(tti), ms(Math.max(...runs.map(run => run.interactive))), `< ${BUDGET_TTI_MS} ms: ${verdict(tti < BUDGET_TTI_MS)}`],
  ['last script received, br (Chromium\'s own accept-encoding)', ms(median(brotliRuns.map(run => run.scripts))), ms(Math.max(...brotliRuns.map(run => run.scripts))), ''],
  ['interactive, br (Chromium\'s own accept-encoding)', ms(ttiBrotli), ms(Math.max(...brotliRuns.map(run => run.interactive))), `< ${BUDGET_TTI_MS} ms: ${verdict(ttiBrotli < BUDGET_TTI_MS)}`],
  ['/enviar JS transferred, gzip', kb(jsWire(enviar)), '', `< ${kb(BUDGET_JS_GZIP)}: ${verdict(jsWire(enviar) < BUDGET_JS_GZIP)}`],
])}

Before the two build settings this section led to (same machine, same bench): the server sent
scripts uncompressed (\`compressPublicAssets\` off: /enviar's 255 KB of JS crossed the wire as is) and
the page's own stylesheet, inlined in the server render, was fetched again before hydration could
start (\`features.inlineStyles\`: one more 562 ms round trip on the critical path); /enviar became
interactive after 4.0 s (median of 5), 2.9 s with compression alone.

### On a 3× phone: / and /galeria by kind of bytes

The same event, first visit on a 390×844 phone at device pixel ratio 3, until the network is idle
(the gallery's lazy tiles within reach are loaded). Videos: bytes of video files a page fetched (a
gallery tile for a video without a poster frame used to fetch the video itself; the seed has two).
${before ? `"before" is the build in \`${shown(before)}\`, seeded the same way in the same run.` : ''}
Photo tiles and the home cover carry \`srcset\`/\`sizes\` (\`thumbUrl\` 480w, \`thumb2xUrl\` 960w,
\`url\` 2048w; a video tile shows its poster alone). Where a photo has no 960 px variant the server
answers \`thumb2xUrl: null\` and the tile lists no \`srcset\` at all: offered 480w
and 2048w, a 3× phone took the 2048 px image for its 195 px tiles (this bench measured /galeria's
images at 572.4 KB instead of 64.0 KB), so a tile offers the display image only above the 960 px
variant. The cover offers 480w and 2048w and a 3× phone takes the display image, as before: the
figures below move once the variant exists. The seed's cover is a small drawn picture: the 567 KB cover of the issue's trial
(a real phone photo's display image) is not reproduced here.

${table(['page', 'build', 'requests', 'bytes transferred (all)', 'images (requests)', 'video files (requests)', 'scripts'], [...media].sort((a, b) => a.weight.path.localeCompare(b.weight.path)).map(({ build, weight }) => [
  weight.path, build, weight.requests, kb(weight.wire), `${kb(weight.images)} (${weight.imageRequests})`, `${kb(weight.video)} (${weight.videoRequests})`, kb(weight.scripts),
]))}

Scripts of /enviar's first load, largest first:

${table(['script', 'on the wire', 'content-encoding', 'uncompressed', 'gzip computed'], [...enviar.js].sort((a, b) => b.raw - a.raw).map(file => [file.path, kb(file.wire), file.encoding, kb(file.raw), kb(file.gzip)]))}
`)
    for (const weight of weights) console.log(`${weight.path}: ${weight.requests} requests, ${kb(weight.wire)} transferred, JS ${kb(jsWire(weight))} on the wire (${encodings(weight)}), ${kb(jsRaw(weight))} uncompressed, ${kb(jsGzip(weight))} gzip computed`)
    for (const { build, weight } of media) console.log(`3x phone ${weight.path} (${build}): ${weight.requests} requests, ${kb(weight.wire)} transferred, images ${kb(weight.images)} (${weight.imageRequests}), video files ${kb(weight.video)} (${weight.videoRequests}), scripts ${kb(weight.scripts)}`)
    console.log(`/enviar interactive under Slow 4G + CPU x${CPU_SLOWDOWN}: gzip ${runs.map(run => ms(run.interactive)).join(', ')} (median ${ms(tti)}), br ${brotliRuns.map(run => ms(run.interactive)).join(', ')} (median ${ms(ttiBrotli)}), load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}); scripts served with content-encoding: ${compressesJs}`)
    console.log(`service worker after /enviar's first load: ${worker.requests} requests, ${kb(worker.wire)} on the wire; precache ${worker.precached} files, ${kb(worker.precachedRaw)}, ${worker.adminScripts} of them the admin's`)
    const firstLoadBefore = beforeOutputs('--first-load-before')
    if (firstLoadBefore.length) await compareFirstLoad(browser, server.url, firstLoadBefore)
  }
  finally {
    await browser.close()
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

interface FirstLoad {
  js: number
  scripts: number
  /** Stylesheets and scripts the HTML names (links and the entry's script tag): what must arrive before the page answers. */
  named: number
  gzip: InteractiveRun[]
  brotli: InteractiveRun[]
  worker: WorkerWeight
}

/** How many stylesheets and scripts /enviar's HTML names (tests/support/first-load.ts). */
async function namedByEnviar(base: string): Promise<number> {
  return namedByHtml(await (await fetch(`${base}/enviar`, { headers: { 'accept-language': 'pt-BR' } })).text()).size
}

/**
 * The guest first load's table: /enviar's first load and what the worker adds, this build against other
 * `.output`s seeded the same way, their interactive runs taken in turn so all see the same load.
 */
async function compareFirstLoad(browser: Browser, base: string, before: string[]) {
  const olds = await Promise.all(before.map(dir => seededServer(join(dir, 'server/index.mjs'))))
  try {
    const builds = [
      ...before.map((dir, index) => ({ name: `before (\`${shown(dir)}\`)`, url: olds[index]!.url, publicDir: join(dir, 'public') })),
      { name: 'this build', url: base, publicDir: PUBLIC_DIR },
    ]
    const results: FirstLoad[] = []
    for (const build of builds) {
      const weight = await firstLoad(browser, build.url, '/enviar', build.publicDir)
      results.push({
        js: weight.js.reduce((sum, file) => sum + file.wire, 0),
        scripts: weight.js.length,
        named: await namedByEnviar(build.url),
        gzip: [],
        brotli: [],
        worker: await workerLoad(browser, build.url, build.publicDir),
      })
    }
    const loadBefore = loadavg()[0]!
    for (let i = 0; i < TTI_RUNS; i++) {
      for (const [index, build] of builds.entries()) {
        results[index]!.gzip.push(await timeToInteractive(browser, build.url))
        results[index]!.brotli.push(await timeToInteractive(browser, build.url, 'browser'))
      }
    }
    const loadAfter = loadavg()[0]!
    const medianOf = (runs: InteractiveRun[], key: keyof InteractiveRun) => ms(median(runs.map(run => run[key])))
    const worst = (runs: InteractiveRun[]) => ms(Math.max(...runs.map(run => run.interactive)))
    writeSection('Guest first load', `
/enviar on a phone from an empty profile, the builds before this item's work and after it, in one
run (\`npx tsx bench/pages.ts --first-load-before <other .output> [--first-load-before …]\`). JS:
every script of the first visit until the network is idle, bytes on the wire with
\`accept-encoding: gzip\` (modulepreloads, prefetch hints, the language's texts loaded at
hydration). Named: the stylesheets and scripts /enviar's HTML names, which must all arrive before
the page answers a tap (over HTTP/1.1 a browser opens six connections to a host: more than six
wait a second round trip). Timings: Chrome DevTools' "Slow 4G" with the CPU slowed ×${CPU_SLOWDOWN}, medians of
${TTI_RUNS} cold loads of each build with gzip alone, and ${TTI_RUNS} with Chromium's own \`accept-encoding\`
(br), all taken in turn (1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, 2 cores). First paint:
the picker is on screen. Last script: the last script received before the page was interactive.
Interactive: from navigation start until the file input is enabled and the page has hydrated.
Worker: the requests the service worker makes after that first load (installing, filling its
precache, asking for the event), bytes on the wire in the encoding Chromium asks for (br), given
${WORKER_SETTLE_MS / 1000} s; its precache list as built, and how many precached scripts are the admin's: loaded by
\`/admin/login\` or \`/admin\` (signed in) and by none of \`/\`, /enviar, /galeria, the slideshow or /recado.

${table(['build', '/enviar JS (gzip, wire)', 'scripts', 'named by the HTML', 'first paint', 'last script', 'interactive, gzip: median (worst)', 'interactive, br: median (worst)', 'worker requests', 'worker bytes (wire)', 'precache: files (as built)', 'admin scripts precached'], builds.map((build, index) => {
  const result = results[index]!
  return [build.name, kb(result.js), result.scripts, result.named, medianOf(result.gzip, 'fcp'), medianOf(result.gzip, 'scripts'), `${medianOf(result.gzip, 'interactive')} (${worst(result.gzip)})`, `${medianOf(result.brotli, 'interactive')} (${worst(result.brotli)})`, result.worker.requests, kb(result.worker.wire), `${result.worker.precached} (${kb(result.worker.precachedRaw)})`, result.worker.adminScripts]
}))}

Goal: /enviar under ${kb(BUDGET_JS_GZIP)} of JS gzip and interactive under ${BUDGET_TTI_MS} ms.

"On the wire" counts each script's HTTP headers too (about 0.4 KB a script); the same scripts
through zlib are the "JS gzip computed" column of "Guest pages weight" above, from the same run.
Where the time goes under this emulation: the HTML costs one round trip (562 ms of emulated
latency; received at about 0.6 s), the stylesheets and scripts it names a second one, and Slow 4G
carries 180 KB/s, so about 95 KB of gzip JS needs 0.5 s more just to arrive: the last script
cannot land much before 1.7 s. Three things brought the rest down (modules/first-load-chunks.ts,
shared/messages/format.ts, composables/useLanguage.ts): the 15 stylesheets and scripts Rollup's
own split named went in three waves over HTTP/1.1's six connections (the last script at about
2.4 s), and now 5 go in one; the entry carries V8's explicit compile hint, so its functions are
compiled while it streams in instead of on the main thread during hydration; and hydration no
longer makes an Intl formatter (its locale's data, 57 ms at ×${CPU_SLOWDOWN}) nor reads \`document.cookie\` three
times. What is left after the last script is the framework's own start and the page's hydration.
`)
    for (const [index, build] of builds.entries()) {
      const result = results[index]!
      console.log(`${build.name}: /enviar JS ${kb(result.js)} in ${result.scripts} scripts, ${result.named} named by the HTML, interactive gzip ${result.gzip.map(run => ms(run.interactive)).join(', ')}, br ${result.brotli.map(run => ms(run.interactive)).join(', ')}, worker ${result.worker.requests} requests ${kb(result.worker.wire)}, precache ${result.worker.precached} files, ${result.worker.adminScripts} of them the admin's`)
    }
  }
  finally {
    await Promise.all(olds.map(async (old) => {
      await old.stop()
      rmSync(old.dir, { recursive: true, force: true })
    }))
  }
}

await main()
