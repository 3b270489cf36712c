// A file picked on a slow network: how long from the pick until its row is on the page (its
// thumbnail still pending), on /enviar at 400 kbps both ways, 400 ms round trip and the CPU slowed
// four times, the file picked as soon as the page says it listens (`main[data-ready]`). Also when
// that was, and the scripts the page fetched before it (the first load). Run: npm run bench --
// pick-to-row; `--before <dir>` measures another build's `.output` (e.g. main's) in turn with this one:
// npx tsx bench/pick-to-row.ts --before ../main/.output
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { login, api } from '../tests/support/http'
import { photo, tempDir } from '../tests/support/media'
import { ROOT, startServer, type TestServer } from '../tests/support/server'
import { table, writeSection } from './lib'

const RUNS = 5
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR' }
const NETWORK = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 }
const CPU_SLOWDOWN = 4
const GOAL_ROW_MS = 500
const GOAL_READY_MS = 3500

/** What the committed run showed, written under its table with `--with-notes` (a later run states its own). */
const NOTES = `Read with care: this run shared the 2-core machine with seven other builds and test suites
(load average near 40), so every time is several times what an idle phone emulation gives (the
issue's idle run: ready at 3.1 s, row at 2.15 s after the pick). Taken in turn, the builds saw the
same load: the idle-time prefetch halves pick to row (median 6.4 s → 3.4 s) and leaves the
first-load JS as it was (92 KB before ready). The goal is not met: the prefetch starts when the
page is ready, so a file picked at that very moment still waits for most of the sending code to
arrive (about 45 KB gzip at 50 KB/s plus a round trip). Reaching 0.5 s needs those bytes before
\`data-ready\`: hinted by the HTML at low priority, or \`data-ready\` held until they land (within the
3.5 s bound). Not done here.`

interface Run {
  ready: number
  pickToRow: number
  /** Script bytes on the wire before the page was ready. */
  firstLoadJs: number
}

const ms = (value: number) => `${Math.round(value)} ms`
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Times kept by the page itself, so the protocol's round trips do not count. */
const MARKS = `
  window.marks = {}
  new MutationObserver(() => {
    if (!window.marks.ready && document.querySelector('main[data-ready]')) window.marks.ready = performance.now()
    if (window.marks.pick && !window.marks.row && document.querySelector('[data-testid=upload-item]')) window.marks.row = performance.now()
  }).observe(document, { subtree: true, childList: true, attributes: true })
  document.addEventListener('change', event => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') window.marks.pick = performance.now()
  }, true)
`

async function pickOnce(browser: Browser, base: string, file: string): Promise<Run> {
  const context = await browser.newContext({ ...PHONE, baseURL: base })
  try {
    const page = await context.newPage()
    await page.addInitScript({ content: MARKS })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'accept-encoding': 'gzip' } })
    await cdp.send('Network.emulateNetworkConditions', NETWORK)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    const scripts: { at: number, wire: number, url: string }[] = []
    const urls = new Map<string, string>()
    cdp.on('Network.responseReceived', event => void urls.set(event.requestId, event.response.url))
    cdp.on('Network.loadingFinished', (event) => {
      const url = urls.get(event.requestId)
      if (url && new URL(url).pathname.endsWith('.js')) scripts.push({ at: event.timestamp, wire: event.encodedDataLength, url })
    })
    await page.goto('/enviar', { waitUntil: 'commit' })
    await page.locator('main[data-ready]').waitFor({ timeout: 60_000 })
    const firstLoadJs = scripts.reduce((sum, script) => sum + script.wire, 0)
    await page.setInputFiles('input[type=file]', [file])
    await page.waitForFunction(() => (window as unknown as { marks: { row?: number } }).marks.row !== undefined, undefined, { timeout: 60_000, polling: 50 })
    const marks = await page.evaluate(() => (window as unknown as { marks: { ready: number, pick: number, row: number } }).marks)
    return { ready: marks.ready, pickToRow: marks.row - marks.pick, firstLoadJs }
  }
  finally {
    await context.close()
  }
}

async function eventServer(entry?: string): Promise<TestServer> {
  const server = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' }, undefined, entry)
  const cookie = await login(server.url)
  await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', moderation: 'post' }, cookie })
  return server
}

async function main() {
  const beforeAt = process.argv.indexOf('--before')
  const before = beforeAt > 0 && process.argv[beforeAt + 1] ? resolve(process.argv[beforeAt + 1]!) : null
  const dir = tempDir()
  const file = await photo(dir, 'IMG_4032.jpg', 'Pick', 200, 4032, 3024)
  const servers = [
    ...(before ? [{ name: `before (\`${relative(ROOT, before)}\`)`, server: await eventServer(join(before, 'server/index.mjs')) }] : []),
    { name: 'this build', server: await eventServer() },
  ]
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const runs = servers.map(() => [] as Run[])
    const loadBefore = loadavg()[0]!
    for (let i = 0; i < RUNS; i++) {
      for (const [index, { server }] of servers.entries()) runs[index]!.push(await pickOnce(browser, server.url, file))
    }
    const loadAfter = loadavg()[0]!
    const rows = servers.map(({ name }, index) => {
      const taken = runs[index]!
      return [
        name,
        `${ms(median(taken.map(run => run.pickToRow)))} (${ms(Math.max(...taken.map(run => run.pickToRow)))})`,
        `${ms(median(taken.map(run => run.ready)))} (${ms(Math.max(...taken.map(run => run.ready)))})`,
        `${(median(taken.map(run => run.firstLoadJs)) / 1024).toFixed(1)} KB`,
      ]
    })
    console.log(rows)
    writeSection('Pick to row on a slow network', `
/enviar on a phone from an empty profile at 400 kbps down and up, 400 ms round trip
(\`Network.emulateNetworkConditions\`) and the CPU slowed ×${CPU_SLOWDOWN} (\`Emulation.setCPUThrottlingRate\`); a
4032×3024 JPEG picked the moment \`main[data-ready]\` is set. Times the page keeps itself
(\`performance.now()\`): ready, from navigation start; pick to row, from the input's \`change\` until
its \`upload-item\` row is in the page (the thumbnail may still be pending). First-load JS: script
bytes on the wire (gzip) received before ready. Medians of ${RUNS} cold loads of each build, taken in
turn (1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, 2 cores,
shared with other work). \`npx tsx bench/pick-to-row.ts --before <other .output>\`.

${table(['build', 'pick to row: median (worst)', 'ready: median (worst)', 'first-load JS before ready'], rows)}

Goal: the row within ${GOAL_ROW_MS} ms of the pick, ready within ${GOAL_READY_MS} ms.

${process.argv.includes('--with-notes') ? NOTES : ''}
`)
  }
  finally {
    await browser.close()
    for (const { server } of servers) await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
