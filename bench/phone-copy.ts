// The phone path of display copies: how long Debian's Chromium takes to make a video's H.264 copy
// with WebCodecs (upload-client/display-copy.ts, the upload page's very code, bundled by Vite)
// for a 1.5 s and a 10 s 1080p VP9 clip with AAC sound. No CPU slowdown: this machine's two
// cores, shared, stand in for a mid-range phone's. Run: npm run bench -- phone-copy.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve } from 'node:path'
import { loadavg } from 'node:os'
import { build } from 'vite'
import { launchChromium } from '../tests/support/chromium'
import { tempDir } from '../tests/support/media'
import { table, writeSection } from './lib'

const RUNS = 3
const ROOT = resolve(import.meta.dirname, '..')
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mp4': 'video/mp4' }

function vp9Clip(dir: string, seconds: number): string {
  const path = join(dir, `vp9-${seconds}s.mp4`)
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '4M', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', path])
  return path
}

const dir = tempDir()
try {
  const outDir = join(dir, 'page')
  await build({
    root: join(import.meta.dirname, 'support/display-copy-page'), configFile: false, logLevel: 'error',
    resolve: { alias: { '#shared': join(ROOT, 'shared'), '~': ROOT } },
    build: { outDir, emptyOutDir: true, minify: false, target: 'es2022' },
  })
  const clips = new Map([1.5, 10].map(seconds => [String(seconds), vp9Clip(dir, seconds)]))
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const file = path.startsWith('/clip-') ? clips.get(path.slice(6, -4)) ?? '' : join(outDir, path === '/' ? 'index.html' : path)
    try {
      const body = readFileSync(file)
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    }
    catch {
      response.writeHead(404).end()
    }
  }).listen(0, '127.0.0.1')
  await new Promise(done => server.once('listening', done))
  const base = `http://localhost:${(server.address() as AddressInfo).port}`
  const rows: (string | number)[][] = []
  for (const [seconds, clip] of clips) {
    const runs: { ms: number, size: number | null }[] = []
    for (let run = 0; run < RUNS; run++) {
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        await page.goto(base)
        await page.locator('html[data-ready]').waitFor()
        runs.push(await page.evaluate(path => (window as unknown as { timeCopy: (path: string) => Promise<{ ms: number, size: number | null }> }).timeCopy(path), `/clip-${seconds}.mp4`))
      }
      finally {
        await browser.close()
      }
    }
    if (runs.some(run => run.size === null)) throw new Error(`no copy made of the ${seconds} s clip`)
    const times = runs.map(run => run.ms).sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]!
    rows.push([`${seconds} s 1080p VP9 + AAC (${(readFileSync(clip).length / 1e6).toFixed(1)} MB)`, `${(median / 1000).toFixed(2)} s`, `${(times[0]! / 1000).toFixed(2)}–${(times.at(-1)! / 1000).toFixed(2)} s`, (median / 1000 / Number(seconds)).toFixed(2), `${(runs[0]!.size! / 1e6).toFixed(2)} MB`])
  }
  server.close()
  writeSection('Display copies made on the phone (Chromium, WebCodecs)', `
Run: \`npm run bench -- phone-copy\`. The upload page's own copy step (upload-client/display-copy.ts: mediabunny, WebCodecs
H.264 at most 1280 px, AAC passed through), bundled by Vite into a bare page, in Debian's Chromium (headless, software H.264 encoder)
on this 2-core machine without a CPU slowdown; a fresh browser per run, ${RUNS} runs per clip, timed from the picked file to
the copy's bytes (the original fetched first). Load average at the end: ${loadavg()[0]!.toFixed(2)} (the machine is shared).

${table(['clip', 'median', 'range', 's per video second', 'copy (1280x720)'], rows)}

A 60 s video would take about 2 min at this rate: the copy is made while the original's bytes go (from init's
answer on) and sent before confirm, like the poster, so the guest's "sent" waits for whichever ends last. With a load average near 10 (other builds and test runs), these are upper figures.
`)
  console.log(rows)
}
finally {
  rmSync(dir, { recursive: true, force: true })
}
