// The phone side of phone-made public images: how long a phone takes to make a photo's public images (display
// 2048 JPEG, thumbnails 960 and 480), how much memory the tab needs for it, and whether the page
// stays responsive meanwhile. Debian's Chromium through playwright-core, the CPU slowed four times
// (DevTools' "4× slowdown", Emulation.setCPUThrottlingRate), a fresh browser per run so the
// renderer's peak RSS (VmHWM) is this run's. The module is bundled with Vite as the app bundles
// it (tests/browser/support/public-images-page). Run: npm run bench -- phone-images.
import { readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { launchChromium } from '../tests/support/chromium'
import sharp from 'sharp'
import { phonePortrait } from '../tests/support/phone-photos'
import { tempDir } from '../tests/support/media'
import { buildPublicImagesPage, servePublicImagesPage } from '../tests/support/public-images-page'
import { table, writeSection } from './lib'

const CPU_SLOWDOWN = 4
const RUNS = 5
const SAMPLE_MS = 50
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }

interface Made { type: string, size: number }
interface Run {
  ms: number
  heapPeakMb: number
  heapBeforeMb: number
  rendererPeakMb: number
  rendererBeforeMb: number
  frameGapMs: number
  idleFrameGapMs: number
  taskGapMs: number
  idleTaskGapMs: number
  images: { display: Made, thumb: Made, thumb2x: Made } | null
}

const mb = (bytes: number) => bytes / 1024 / 1024
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`

/** Resident memory of every renderer process (VmRSS now, VmHWM its peak), from Chromium's own process list. */
async function renderers(browserCdp: CDPSession): Promise<{ rss: number, hwm: number }[]> {
  const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo') as { processInfo: { type: string, id: number }[] }
  return processInfo.filter(info => info.type === 'renderer').flatMap((info) => {
    try {
      const status = readFileSync(`/proc/${info.id}/status`, 'utf8')
      const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
      return [{ rss: field('VmRSS'), hwm: field('VmHWM') }]
    }
    catch {
      return []
    }
  })
}

async function heapUsed(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find(metric => metric.name === 'JSHeapUsedSize')?.value ?? 0
}

/** Opens the harness with the page's `hidden` globals removed (init scripts do not reach workers: only the page's). */
async function openHarness(browser: Browser, url: string, hidden: readonly string[]): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, baseURL: url })
  // tsx keeps function names with an `__name(…)` helper that the page does not have: the
  // functions this script hands to page.evaluate need it defined there.
  await context.addInitScript('globalThis.__name = (target) => target')
  for (const name of hidden) await context.addInitScript(`delete globalThis.${name}`)
  const page = await context.newPage()
  await page.goto('/')
  await page.locator('html[data-ready]').waitFor()
  return page
}

async function measure(url: string, photo: string, hidden: readonly string[], slowdown: number): Promise<Run> {
  const browser = await launchChromium()
  try {
    const browserCdp = await browser.newBrowserCDPSession()
    const page = await openHarness(browser, url, hidden)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.evaluate(name => (window as any).loadPhoto(`/${name}`), photo)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
    // The page's own heartbeats: the longest time between two animation frames (what a finger
    // dragging the list would see) and between two 10 ms timer callbacks (how long a tap would
    // wait for the main thread), while it works.
    await page.evaluate(() => {
      const state = { frameAt: performance.now(), frame: 0, tickAt: performance.now(), tick: 0, running: true }
      Object.assign(window, { heartbeat: state })
      const beat = (now: number) => {
        state.frame = Math.max(state.frame, now - state.frameAt)
        state.frameAt = now
        if (state.running) requestAnimationFrame(beat)
      }
      requestAnimationFrame(beat)
      const timer = setInterval(() => {
        const now = performance.now()
        state.tick = Math.max(state.tick, now - state.tickAt)
        state.tickAt = now
        if (!state.running) clearInterval(timer)
      }, 10)
    })
    const resetHeartbeat = () => page.evaluate(() => Object.assign((window as any).heartbeat, { frame: 0, tick: 0 }))
    const readHeartbeat = () => page.evaluate(() => ({ frame: (window as any).heartbeat.frame as number, tick: (window as any).heartbeat.tick as number }))
    // The same heartbeats over a second of doing nothing: the floor a loaded machine sets.
    await page.waitForTimeout(200)
    await resetHeartbeat()
    await page.waitForTimeout(1000)
    const idle = await readHeartbeat()
    await resetHeartbeat()
    const heapBefore = await heapUsed(cdp)
    const rendererBefore = Math.max(...(await renderers(browserCdp)).map(r => r.rss))
    let heapPeak = heapBefore
    let done = false
    const work = page.evaluate(() => (window as any).makeLoaded(false)).finally(() => {
      done = true
    })
    while (!done) {
      heapPeak = Math.max(heapPeak, await heapUsed(cdp).catch(() => 0))
      await new Promise(resolve => setTimeout(resolve, SAMPLE_MS))
    }
    const answer = await work as { ms: number, images: Run['images'] }
    const busy = await readHeartbeat()
    await page.evaluate(() => Object.assign((window as any).heartbeat, { running: false }))
    const rendererPeak = Math.max(...(await renderers(browserCdp)).map(r => r.hwm))
    return {
      ms: answer.ms, heapPeakMb: mb(heapPeak), heapBeforeMb: mb(heapBefore), rendererPeakMb: mb(rendererPeak), rendererBeforeMb: mb(rendererBefore),
      frameGapMs: busy.frame, idleFrameGapMs: idle.frame, taskGapMs: busy.tick, idleTaskGapMs: idle.tick, images: answer.images,
    }
  }
  finally {
    await browser.close()
  }
}

/** What Chromium's canvas writes for the two thumbnail formats, and for the noisiest picture each variant can be. */
async function encoderSizes(url: string): Promise<{ version: string, rows: string[][] }> {
  const browser = await launchChromium()
  try {
    const page = await openHarness(browser, url, [])
    const rows = await page.evaluate(async () => {
      const photo = await createImageBitmap(await (await fetch('/photo-12mp.jpg')).blob(), { imageOrientation: 'from-image' })
      /** Noise drawn at the size itself: nothing for the encoder to compress, the heaviest image of that size. */
      const noise = (width: number, height: number) => {
        const pixels = new ImageData(width, height)
        let seed = 7
        for (let i = 0; i < pixels.data.length; i++) {
          seed ^= seed << 13
          seed ^= seed >>> 17
          seed ^= seed << 5
          pixels.data[i] = i % 4 === 3 ? 255 : seed & 0xFF
        }
        return createImageBitmap(pixels)
      }
      const size = async (source: ImageBitmap, width: number, height: number, type: string, quality: number) => {
        const canvas = new OffscreenCanvas(width, height)
        const context = canvas.getContext('2d')!
        context.imageSmoothingQuality = 'high'
        context.drawImage(source, 0, 0, width, height)
        return `${Math.round((await canvas.convertToBlob({ type, quality })).size / 1024)} KB`
      }
      const rows: string[][] = []
      for (const [width, height] of [[1536, 2048], [720, 960], [360, 480]] as const) {
        rows.push(['12 MP photo', `${width} × ${height}`, await size(photo, width, height, 'image/jpeg', 0.85), await size(photo, width, height, 'image/jpeg', 0.8), await size(photo, width, height, 'image/webp', 0.8)])
      }
      for (const side of [2048, 960, 480]) {
        const source = await noise(side, side)
        rows.push(['noise (worst case)', `${side} × ${side}`, await size(source, side, side, 'image/jpeg', 0.85), await size(source, side, side, 'image/jpeg', 0.8), await size(source, side, side, 'image/webp', 0.8)])
      }
      return rows
    })
    return { version: browser.version(), rows }
  }
  finally {
    await browser.close()
  }
}

async function main() {
  const dir = tempDir()
  try {
    const out = join(dir, 'page')
    const loadAtStart = loadavg()[0]!
    console.log('making the photos and the page…')
    const [photo12, photo48] = await Promise.all([phonePortrait(4000, 3000), phonePortrait(8000, 6000), buildPublicImagesPage(out)])
    const site = await servePublicImagesPage(out, { 'photo-12mp.jpg': photo12, 'photo-48mp.jpg': photo48 })
    try {
      const mainThread = ['OffscreenCanvas']
      const cases = [
        { label: '12 MP, worker', photo: 'photo-12mp.jpg', hidden: [], slowdown: CPU_SLOWDOWN },
        { label: '12 MP, main thread (no OffscreenCanvas)', photo: 'photo-12mp.jpg', hidden: mainThread, slowdown: CPU_SLOWDOWN },
        { label: '48 MP, worker', photo: 'photo-48mp.jpg', hidden: [], slowdown: CPU_SLOWDOWN },
        { label: '48 MP, main thread, createImageBitmap only (no ImageDecoder: Safari)', photo: 'photo-48mp.jpg', hidden: [...mainThread, 'ImageDecoder'], slowdown: CPU_SLOWDOWN },
        { label: '12 MP, worker, no slowdown', photo: 'photo-12mp.jpg', hidden: [], slowdown: 1 },
      ]
      const rows: (string | number)[][] = []
      let sizes: Run['images'] = null
      for (const item of cases) {
        const runs: Run[] = []
        for (let index = 0; index < RUNS; index++) {
          const run = await measure(site.url, item.photo, item.hidden, item.slowdown)
          if (!run.images) throw new Error(`${item.label}: no images made`)
          runs.push(run)
          console.log(item.label, `${Math.round(run.ms)} ms`, `heap ${run.heapPeakMb.toFixed(1)} MB`, `renderer ${Math.round(run.rendererPeakMb)} MB`, `frame gap ${Math.round(run.frameGapMs)} ms (idle ${Math.round(run.idleFrameGapMs)})`, `task gap ${Math.round(run.taskGapMs)} ms (idle ${Math.round(run.idleTaskGapMs)})`)
        }
        sizes ??= runs[0]!.images
        rows.push([
          item.label,
          `${item.slowdown}×`,
          `${Math.round(median(runs.map(run => run.ms)))} ms`,
          `${Math.max(...runs.map(run => run.heapPeakMb)).toFixed(1)} MB (${median(runs.map(run => run.heapBeforeMb)).toFixed(1)} before)`,
          `${Math.round(Math.max(...runs.map(run => run.rendererPeakMb)))} MB (${Math.round(median(runs.map(run => run.rendererBeforeMb)))} before)`,
          `${Math.round(median(runs.map(run => run.taskGapMs)))} ms (idle ${Math.round(median(runs.map(run => run.idleTaskGapMs)))} ms)`,
          `${Math.round(median(runs.map(run => run.frameGapMs)))} ms (idle ${Math.round(median(runs.map(run => run.idleFrameGapMs)))} ms)`,
        ])
      }
      const encoders = await encoderSizes(site.url)
      const original = await sharp(photo12).metadata()
      writeSection('Phone-made public images', `
Measured by \`bench/phone-images.ts\` on ${new Date().toISOString().slice(0, 10)}: Chromium ${encoders.version} headless, a fresh
browser per run (${RUNS} runs per row: median time and gaps, highest peaks), the CPU slowed with
\`Emulation.setCPUThrottlingRate\`. The photo is a ${original.width} × ${original.height} JPEG of
${(photo12.length / 1024 / 1024).toFixed(1)} MB with EXIF orientation 6 and GPS (made with sharp; the 48 MP one is 8000 × 6000,
${(photo48.length / 1024 / 1024).toFixed(1)} MB). "Time" runs from the call to \`makePublicImages\` to its three blobs; "JS heap" is
the page's \`JSHeapUsedSize\` sampled every ${SAMPLE_MS} ms (pixels live outside it: the renderer's RSS is the
memory that counts); "renderer peak RSS" is the highest \`VmHWM\` of the renderer processes (the worker runs inside it);
"longest main-thread stall" is the longest time between two callbacks of a 10 ms \`setInterval\` on
the page while it worked (how long a tap would wait for an answer), "longest frame gap" the same
between two \`requestAnimationFrame\` callbacks; each beside the same over an idle second just before
(the floor the machine's load sets: other work shared its cores, load average ${loadAtStart.toFixed(1)} at the start).

${table(['case', 'CPU', 'time', 'JS heap peak', 'renderer peak RSS', 'longest main-thread stall', 'longest frame gap'], rows)}

- The CPU slowdown reaches only the page's main thread, not the worker: the worker's time is the
  same at 4× and 1×, so its rows say what this machine takes (a phone several times slower takes
  several times longer, off the main thread all the same). The main-thread rows show what the
  fallback costs a page that has to do the work itself.
- Memory: a JPEG is decoded straight to a fraction of its size (WebCodecs' ImageDecoder with a
  desired size: libjpeg scales by n/8 while decoding), so a 48 MP photo costs the renderer about as
  much as a 12 MP one. createImageBitmap's resize options do not spare the full-size decode in
  Chromium: the createImageBitmap-only row is what a browser without ImageDecoder pays.

Made from the 12 MP photo: display ${sizes!.display.type} ${kb(sizes!.display.size)}, thumb2x ${sizes!.thumb2x.type} ${kb(sizes!.thumb2x.size)},
thumb ${sizes!.thumb.type} ${kb(sizes!.thumb.size)}.

What Chromium's canvas writes (OffscreenCanvas.convertToBlob, before the phone strips the 0.5 KB sRGB
ICC profile it adds to every image). The thumbnails are WebP: lighter than JPEG at the same quality
setting, and the gallery grid is what hundreds of phones load on the venue's Wi-Fi; Safari's canvas
cannot write WebP, so there they are JPEG. The noise rows are the worst case each variant's byte cap
(shared/media/public-image.ts) must leave room for.

${table(['picture', 'size', 'JPEG 0.85', 'JPEG 0.8', 'WebP 0.8'], encoders.rows)}
`)
      console.log('written to bench/RESULTS.md')
    }
    finally {
      await site.stop()
    }
  }
  finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
