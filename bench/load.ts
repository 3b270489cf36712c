// Load: simulated guests each sending photos (real 1–5 MiB JPEGs) with init → PUT → confirm,
// paced over a window, while gallery viewers poll GET /api/gallery; once against the local driver and
// once against s3rver. Reports lost uploads, answers by status, latencies, PUT throughput, server peak
// RSS and how long the derivation backlog (sharp, one photo per core) took to drain afterwards.
// Run separately from `npm run bench`: npm run bench:load [-- --guests 300 --photos 10 --window 120
//   --pollers 50 --drain-timeout 120 --drivers local,s3]. Traffic goes to 127.0.0.1 only; every loop is
// bounded by a count or a deadline.
// Guests send the public images their phone made (made here with sharp before the run, off
// the measured path), and each photo's confirm → listed latency is measured; `--old-clients 1,0,0.25`
// runs each driver once per share of guests that send none (1: every photo derived by the server,
// as for old clients) and writes the comparison under its own heading instead of the load's.
// `--venue` runs the venue's polling instead (bench/support/venue.ts): bytes per evening
// minute, with `--venue-before <server entry>` (main's build) measured first for comparison.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createClient } from '@libsql/client'
import sharp from 'sharp'
import { backoffDelay } from '../upload-client/backoff'
import { PUBLIC_IMAGE_VARIANT_NAMES } from '../shared/media/public-image'
import { makePhoneImages, type PhoneImages } from '../tests/support/phone-images'
import { login } from '../tests/support/http'
import { ROOT, SERVER_ENTRY, startServer, type TestServer } from '../tests/support/server'
import { localProbe, s3Probe, type StorageProbe } from '../tests/support/storage'
import type { TestS3 } from '../tests/support/s3'
import { peakRssMb, percentile, startChild, table, writeSection, type Child } from './lib'
import { runVenue, type VenueOptions, type VenueResult } from './support/venue'

const { values: flags } = parseArgs({
  options: {
    'guests': { type: 'string', default: process.env.BENCH_LOAD_GUESTS ?? '300' },
    'photos': { type: 'string', default: process.env.BENCH_LOAD_PHOTOS ?? '1' },
    'window': { type: 'string', default: process.env.BENCH_LOAD_WINDOW ?? '60' },
    'pollers': { type: 'string', default: '50' },
    'poll-interval': { type: 'string', default: '2' },
    'drain-timeout': { type: 'string', default: process.env.BENCH_LOAD_DRAIN_TIMEOUT ?? '75' },
    'drivers': { type: 'string', default: 'local,s3' },
    /** Shares of guests (0–1, comma-separated: one run each) that are old clients sending no public images. */
    'old-clients': { type: 'string' },
    /** Extra environment for the server, KEY=VALUE (repeatable), e.g. UV_THREADPOOL_SIZE=16. */
    'server-env': { type: 'string', multiple: true, default: [] },
    /** Writes one JSON line per request (driver, step, start s, ms, status, requests in flight) here. */
    'trace': { type: 'string' },
    /** The venue simulation (bench/support/venue.ts) instead of the upload load. */
    'venue': { type: 'boolean', default: false },
    'venue-before': { type: 'string' },
    'venue-phones': { type: 'string', default: '300' },
    'venue-minutes': { type: 'string', default: '20' },
    'venue-speed': { type: 'string', default: '10' },
    /** With `--venue`: this build twice, without hearts and with this many a second (bench/support/venue.ts). */
    'venue-hearts': { type: 'string' },
  },
})
const GUESTS = Number(flags.guests)
const PHOTOS = Number(flags.photos)
const WINDOW_MS = Number(flags.window) * 1000
const POLLERS = Number(flags.pollers)
const POLL_MS = Number(flags['poll-interval']) * 1000
const DRAIN_TIMEOUT_MS = Number(flags['drain-timeout']) * 1000
const OLD_CLIENT_SHARES = (flags['old-clients'] ?? '0').split(',').map(Number)
const DRIVERS = flags.drivers.split(',').map(name => name.trim()).filter(Boolean) as ('local' | 's3')[]
const SERVER_ENV = Object.fromEntries(flags['server-env'].map(pair => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
const REQUEST_TIMEOUT_MS = 120_000
/** As the upload page: server errors in a row before it gives a file up (lost connections: see MAX_ATTEMPTS). */
const MAX_SERVER_FAILURES = 6
/** The page retries a lost connection for as long as it is open; a run has to end. */
const MAX_ATTEMPTS = 12
/** All guests reach the server from 127.0.0.1: the per-client upload limit must not be what is measured. */
const RATE_LIMIT = '1000000'
const MiB = 1024 * 1024

const AUTHORS = ['João', 'Maria José', 'Ana Lúcia', 'Inês', 'Zoë', 'François', 'Sofía', 'Álvaro', 'Tia Conceição', 'Bruno', '']
const MESSAGES = ['Parabéns aos noivos!', 'Felicidades ❤️', 'Que festa linda!', '', 'Félicitations !', 'Saúde! 🥂']

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, Math.max(0, ms)))

// ---------------------------------------------------------------------------------------------
// Fixtures: a handful of real JPEGs of phone-like sizes, made once from noise and kept in tmp.

const FIXTURE_SPECS = [
  { width: 1600, height: 1200, mib: 1 },
  { width: 2592, height: 1944, mib: 2 },
  { width: 3264, height: 2448, mib: 3 },
  { width: 4032, height: 3024, mib: 4 },
  { width: 4032, height: 3024, mib: 4.8 },
]
const FIXTURE_DIR = join(tmpdir(), 'event-media-bench-jpegs-v1')

/** Noise drawn at half resolution and scaled up: a texture JPEG cannot shrink, at a phone's pixel count. */
function noiseJpeg(width: number, height: number, quality: number, seed: number): Promise<Buffer> {
  const w = Math.ceil(width / 2)
  const h = Math.ceil(height / 2)
  const raw = Buffer.alloc(w * h * 3)
  let state = seed >>> 0 || 1
  for (let i = 0; i < raw.length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    raw[i] = state & 0xff
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).jpeg({ quality }).toBuffer()
}

async function fixtures(): Promise<Buffer[]> {
  mkdirSync(FIXTURE_DIR, { recursive: true })
  const made: Buffer[] = []
  for (const [index, spec] of FIXTURE_SPECS.entries()) {
    const path = join(FIXTURE_DIR, `${spec.width}x${spec.height}-${spec.mib}MiB.jpg`)
    if (existsSync(path)) {
      made.push(readFileSync(path))
      continue
    }
    // The quality that brings the file closest to its size (bisection: size grows with quality).
    let low = 5
    let high = 100
    let best: Buffer | undefined
    for (let step = 0; step < 7; step++) {
      const quality = Math.round((low + high) / 2)
      const bytes = await noiseJpeg(spec.width, spec.height, quality, index + 1)
      if (!best || Math.abs(bytes.length - spec.mib * MiB) < Math.abs(best.length - spec.mib * MiB)) best = bytes
      if (bytes.length > spec.mib * MiB) high = quality
      else low = quality
    }
    writeFileSync(path, best!)
    made.push(best!)
  }
  return made
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping

type Step = 'init' | 'put' | 'images' | 'confirm' | 'gallery'

class Statuses {
  counts = new Map<Step, Map<string, number>>()
  add(step: Step, status: number | string) {
    const byStatus = this.counts.get(step) ?? new Map<string, number>()
    byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1)
    this.counts.set(step, byStatus)
  }

  count(test: (status: string) => boolean, step?: Step): number {
    let total = 0
    for (const [name, byStatus] of this.counts) {
      if (step && name !== step) continue
      for (const [status, n] of byStatus) if (test(status)) total += n
    }
    return total
  }

  describe(step: Step): string {
    const byStatus = this.counts.get(step)
    if (!byStatus) return '–'
    return [...byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${n}`).join(', ')
  }
}

interface Timed { status: number | string, ms: number, body: any }

/** One request; a socket error or timeout is recorded as a status of its own, never thrown. */
async function timed(url: string, init: RequestInit): Promise<Timed> {
  const started = performance.now()
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    const text = await response.text()
    let body: any = null
    try {
      body = text ? JSON.parse(text) : null
    }
    catch { /* not JSON */ }
    return { status: response.status, ms: performance.now() - started, body }
  }
  catch (error) {
    const name = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.name) : 'error'
    return { status: `error ${name}`, ms: performance.now() - started, body: null }
  }
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Photos the server has not made display images of yet (they are not in the gallery until then). */
async function derivationBacklog(base: string): Promise<number> {
  const answer = await timed(`${base}/api/health`, {})
  if (typeof answer.body?.derivationBacklog !== 'number') throw new Error(`health: ${answer.status}`)
  return answer.body.derivationBacklog
}

// ---------------------------------------------------------------------------------------------
// One run against one storage driver

interface RunReport {
  driver: string
  attempted: number
  confirmed: number
  lost: { adminTotal: number, missingInDb: number, missingInStorage: number }
  extraConfirmed: number
  statuses: Statuses
  initMs: number[]
  putMs: number[]
  putMibps: number[]
  confirmMs: number[]
  galleryMs: number[]
  putBytes: number
  firstInitAt: number
  lastConfirmAt: number
  phaseSeconds: number
  backlogAtLastConfirm: number
  drainedAfterSeconds: number | null
  derivedAtEnd: number
  retries: number
  derivationRate: number
  serverPeakRssMb: number
  serverCpuSeconds: number
  storagePeakRssMb: number | null
  /** Share of guests sending no public images (old clients). */
  oldClients: number
  /** Per confirmed photo: from the confirm's 200 to the moment the gallery lists it (ms); unlisted ones are missing. */
  listedMs: number[]
  /** Confirmed photos the gallery still did not list when the run ended. */
  neverListed: number
  /** Listed in GET /api/gallery, walked page by page at the end. */
  listedAtEnd: number
  /** Server CPU from the first upload until the last photo was listed (or the drain gave up), per confirmed photo. */
  cpuPerPhotoMs: number
  /** Photos whose phone-made images the server accepted. */
  phoneAccepted: number
  serverComplaints: string[]
  /** Latency of one client asking GET /api/event every 250 ms during the uploads: is the server responsive? */
  probeMs: number[]
  /** The load generator's own event-loop delay (ms): if it stalls, client-side numbers suffer too. */
  clientLoopP99: number
  clientLoopMax: number
  /** Seconds since the start of each failure (not 2xx), to see when they happen. */
  failureTimes: number[]
}

async function runOnce(driver: 'local' | 's3', photos: Buffer[], images: PhoneImages[], oldClients: number): Promise<RunReport> {
  let storage: Child | undefined
  let s3: Pick<TestS3, 'endpoint' | 'env' | 'directory'> | undefined
  if (driver === 's3') {
    storage = await startChild(join(import.meta.dirname, 'support/s3rver.ts'), [], /^ready /)
    s3 = JSON.parse(storage.ready.slice('ready '.length))
  }
  const server: TestServer = await startServer({ RATE_LIMIT_UPLOADS_PER_MINUTE: RATE_LIMIT, ...s3?.env, ...SERVER_ENV })
  try {
    const base = server.url
    const statuses = new Statuses()
    const initMs: number[] = []
    const putMs: number[] = []
    const putMibps: number[] = []
    const confirmMs: number[] = []
    const galleryMs: number[] = []
    const confirmedIds = new Map<string, number>()
    /** When each confirm's 200 arrived (epoch ms, the clock the server stamps `derived_at` with). */
    const confirmedAt = new Map<string, number>()
    const imagesMs: number[] = []
    let putBytes = 0
    let firstInitAt = Infinity
    let lastConfirmAt = 0
    const cpuBefore = cpuSeconds(server.proc.pid!)

    const t0 = performance.now() + 500
    let guestsDone = false
    const failureTimes: number[] = []
    let inFlight = 0
    let retries = 0
    const trace: string[] = []
    const record = (step: Step, answer: Timed) => {
      statuses.add(step, answer.status)
      if (flags.trace) trace.push(JSON.stringify({ driver, step, start: +((performance.now() - answer.ms - t0) / 1000).toFixed(2), ms: Math.round(answer.ms), status: answer.status, inFlight }))
      if (typeof answer.status !== 'number' || answer.status >= 300) failureTimes.push((performance.now() - t0) / 1000)
    }
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()

    async function guest(g: number) {
      const phase = Math.random()
      for (let k = 0; k < PHOTOS; k++) {
        await sleep(t0 + ((k + phase) * WINDOW_MS) / PHOTOS - performance.now())
        const index = (g * PHOTOS + k) % photos.length
        inFlight++
        try {
          // Old clients spread evenly over the guests: guest g is one when the share up to g grows past a whole one.
          const old = Math.floor((g + 1) * oldClients) > Math.floor(g * oldClients)
          await sendPhoto(g, k, photos[index]!, old ? null : images[index]!)
        }
        finally {
          inFlight--
        }
      }
    }

    /**
     * One step as the upload page sends it (upload-client/transfer.ts): a transient failure
     * (no answer, 408, 429, 5xx) is tried again after the page's back-off, at most
     * MAX_SERVER_FAILURES server errors in a row. Every attempt is recorded.
     */
    async function step(name: Step, url: string, init: RequestInit, times: number[]): Promise<Timed> {
      let serverFailures = 0
      for (let attempt = 0; ; attempt++) {
        const answer = await timed(url, init)
        record(name, answer)
        times.push(answer.ms)
        const status = answer.status
        const transient = typeof status !== 'number' || status >= 500 || status === 408 || status === 429
        if (!transient) return answer
        if (typeof status === 'number' && ++serverFailures > MAX_SERVER_FAILURES) return answer
        if (attempt >= MAX_ATTEMPTS) return answer
        retries++
        await sleep(backoffDelay(attempt))
      }
    }

    /** As the upload page does (phone-images.ts): sign the three images, PUT them side by side. */
    async function sendImages(id: string, made: PhoneImages) {
      const declaration = Object.fromEntries(PUBLIC_IMAGE_VARIANT_NAMES.map(name => [name, { contentType: made[name].contentType, size: made[name].bytes.length }]))
      const signed = await step('images', `${base}/api/uploads/${id}/public-images`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(declaration) }, imagesMs)
      if (signed.status !== 200) return
      await Promise.all(PUBLIC_IMAGE_VARIANT_NAMES.map(name =>
        step('images', signed.body.upload[name].url, { method: 'PUT', body: made[name].bytes as unknown as BodyInit, headers: signed.body.upload[name].headers }, imagesMs)))
    }

    async function sendPhoto(g: number, k: number, bytes: Buffer, made: PhoneImages | null) {
      const author = AUTHORS[g % AUTHORS.length]!
      firstInitAt = Math.min(firstInitAt, performance.now())
      const init = await step('init', `${base}/api/uploads/init`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: `IMG_${String(1000 + k).padStart(4, '0')}.JPG`, contentType: 'image/jpeg', size: bytes.length, author, message: MESSAGES[(g + k) % MESSAGES.length] }),
      }, initMs)
      if (init.status !== 201) return
      const target = init.body.upload
      const put = await step('put', target.url, { method: 'PUT', body: bytes as unknown as BodyInit, headers: target.headers }, putMs)
      if (put.status !== 200) return
      putBytes += bytes.length
      putMibps.push(bytes.length / MiB / (put.ms / 1000))
      if (made) await sendImages(init.body.id, made)
      const confirm = await step('confirm', `${base}/api/uploads/${init.body.id}/confirm`, { method: 'POST' }, confirmMs)
      if (confirm.status === 200) {
        confirmedIds.set(init.body.id, bytes.length)
        confirmedAt.set(init.body.id, Date.now())
        lastConfirmAt = Math.max(lastConfirmAt, performance.now())
      }
    }

    async function poller() {
      await sleep(Math.random() * POLL_MS)
      while (!guestsDone) {
        const started = performance.now()
        const answer = await timed(`${base}/api/gallery`, {})
        record('gallery', answer)
        galleryMs.push(answer.ms)
        await sleep(POLL_MS * (0.8 + Math.random() * 0.4) - (performance.now() - started))
      }
    }

    const probeMs: number[] = []
    async function responsiveness() {
      while (!guestsDone) {
        const started = performance.now()
        const answer = await timed(`${base}/api/event`, {})
        probeMs.push(answer.ms)
        if (flags.trace) trace.push(JSON.stringify({ driver, step: 'probe', start: +((started - t0) / 1000).toFixed(2), ms: Math.round(answer.ms), status: answer.status, inFlight }))
        await sleep(250 - (performance.now() - started))
      }
    }

    const progress = setInterval(() => {
      console.log(`  [${driver}] ${((performance.now() - t0) / 1000).toFixed(0)} s: ${confirmedIds.size}/${GUESTS * PHOTOS} confirmed, server RSS peak ${peakRssMb(server.proc.pid!)} MB`)
    }, 15_000)
    const pollers = [...Array.from({ length: POLLERS }, poller), responsiveness()]
    await Promise.all(Array.from({ length: GUESTS }, (_, g) => guest(g)))
    guestsDone = true
    await Promise.all(pollers)
    clearInterval(progress)
    loop.disable()
    if (flags.trace) appendFileSync(flags.trace, `${trace.join('\n')}\n`)
    const phaseSeconds = (lastConfirmAt - firstInitAt) / 1000
    const serverCpuSeconds = cpuSeconds(server.proc.pid!) - cpuBefore

    // Derivation backlog, as /api/health reports it, until it is empty.
    const samples: { at: number, derived: number }[] = []
    let drainedAfterSeconds: number | null = null
    let backlogAtLastConfirm = 0
    const deadline = performance.now() + DRAIN_TIMEOUT_MS
    for (let scan = 0; scan < 100_000; scan++) {
      const backlog = await derivationBacklog(base)
      const at = performance.now()
      samples.push({ at, derived: confirmedIds.size - backlog })
      if (scan === 0) backlogAtLastConfirm = backlog
      if (backlog === 0) {
        drainedAfterSeconds = (at - lastConfirmAt) / 1000
        break
      }
      if (at > deadline) break
      await sleep(1000)
    }
    const first = samples[0]!
    const last = samples[samples.length - 1]!
    const derivationRate = last.at > first.at ? (last.derived - first.derived) / ((last.at - first.at) / 1000) : 0
    const cpuToListed = cpuSeconds(server.proc.pid!) - cpuBefore

    // What the gallery lists at the end, walked page by page through the API.
    let listedAtEnd = 0
    let cursor: string | null = null
    for (let page = 0; page < 10_000; page++) {
      const answer = await timed(`${base}/api/gallery?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {})
      if (answer.status !== 200) break
      listedAtEnd += answer.body.items.filter((item: { id: string }) => confirmedIds.has(item.id)).length
      cursor = answer.body.nextCursor
      if (!cursor) break
    }

    const cookie = await login(base)
    const listed = await timed(`${base}/api/admin/uploads?limit=1`, { headers: { cookie } })
    const adminTotal = listed.status === 200 ? listed.body.total : -1
    const serverPeakRssMb = peakRssMb(server.proc.pid!)
    const storagePeakRssMb = storage ? peakRssMb(storage.proc.pid!) : null
    await server.stop()

    // Every confirm that answered 200 must have its record and its original bytes.
    const db = createClient({ url: `file:${server.dbPath}` })
    const { rows } = await db.execute('select id, storage_key, size, derived_at, display_key, public_image_source from uploads where confirmed_at is not null')
    db.close()
    // A photo is listed from the moment its display image is recorded (`derived_at`, set in the same
    // write as `display_key`: at confirm for accepted phone images, else when derivation ends); the
    // gallery's WHERE asks exactly that of an approved upload (post-moderation here).
    const listedMs: number[] = []
    let neverListed = 0
    let phoneAccepted = 0
    for (const row of rows) {
      const answered = confirmedAt.get(String(row.id))
      if (answered === undefined) continue
      if (row.public_image_source === 'phone') phoneAccepted++
      if (row.display_key === null || row.derived_at === null) neverListed++
      else listedMs.push(Math.max(0, Number(row.derived_at) - answered))
    }
    const inDb = new Map(rows.map(row => [String(row.id), { key: String(row.storage_key), size: Number(row.size) }]))
    const probe: StorageProbe = s3 ? s3Probe(s3 as TestS3) : localProbe(server.mediaDir)
    let missingInDb = 0
    const keys: string[] = []
    for (const [id, size] of confirmedIds) {
      const row = inDb.get(id)
      if (!row || row.size !== size) missingInDb++
      else keys.push(row.key)
    }
    let missingInStorage = 0
    let next = 0
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < keys.length) {
        if (!await probe.exists(keys[next++]!)) missingInStorage++
      }
    }))
    const complaints = [...new Set(server.output().split('\n').filter(line => /error|warn|fail|busy|locked/i.test(line) && !/NodeVersionSupportWarning|trace-warnings/.test(line)).map(line => line.slice(0, 200)))]

    return {
      driver: driver === 'local' ? 'local driver' : 's3rver',
      attempted: GUESTS * PHOTOS,
      confirmed: confirmedIds.size,
      lost: { adminTotal: Math.max(0, confirmedIds.size - adminTotal), missingInDb, missingInStorage },
      extraConfirmed: [...inDb.keys()].filter(id => !confirmedIds.has(id)).length,
      statuses,
      initMs, putMs, putMibps, confirmMs, galleryMs, putBytes,
      firstInitAt, lastConfirmAt, phaseSeconds,
      backlogAtLastConfirm, drainedAfterSeconds, derivedAtEnd: last.derived, derivationRate,
      serverPeakRssMb, serverCpuSeconds, storagePeakRssMb,
      oldClients, listedMs, neverListed, listedAtEnd, phoneAccepted,
      cpuPerPhotoMs: confirmedIds.size ? (cpuToListed * 1000) / confirmedIds.size : 0,
      serverComplaints: complaints.slice(0, 8),
      retries,
      probeMs,
      clientLoopP99: loop.percentile(99) / 1e6,
      clientLoopMax: loop.max / 1e6,
      failureTimes,
    }
  }
  finally {
    await server.stop()
    await storage?.stop()
    rmSync(server.dir, { recursive: true, force: true })
    if (s3) rmSync(s3.directory, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(0)} ms` : '–')

function report(runs: RunReport[], photos: Buffer[]) {
  const lostOf = (run: RunReport) => Math.max(run.lost.adminTotal, run.lost.missingInDb) + run.lost.missingInStorage
  const fiveXx = (run: RunReport) => run.statuses.count(status => /^5/.test(status))
  const rows: (string | number)[][] = [
    ['uploads attempted (guests × photos)', ...runs.map(run => `${run.attempted} (${GUESTS} × ${PHOTOS})`), ''],
    ['confirmed with 200', ...runs.map(run => run.confirmed), 'all'],
    ['lost: confirmed 200 but missing from admin total / DB / storage', ...runs.map(run => `${lostOf(run)} (${run.lost.adminTotal} / ${run.lost.missingInDb} / ${run.lost.missingInStorage})`), '0'],
    ['5xx answers (all steps and gallery polls)', ...runs.map(fiveXx), '0'],
    ['other failures (4xx, socket errors, timeouts)', ...runs.map(run => run.statuses.count(status => !/^[25]/.test(status))), ''],
    ['attempts tried again after a transient failure, as the upload page does', ...runs.map(run => run.retries), ''],
    ['confirmed in the database although no 200 reached the guest (socket error on confirm)', ...runs.map(run => run.extraConfirmed), ''],
    ['when the failures happened (s after start: first, median, last)', ...runs.map(run => (run.failureTimes.length
      ? `${percentile(run.failureTimes, 0).toFixed(0)} / ${percentile(run.failureTimes, 50).toFixed(0)} / ${percentile(run.failureTimes, 100).toFixed(0)}`
      : '–')), ''],
    ['first init → last confirm', ...runs.map(run => `${run.phaseSeconds.toFixed(0)} s (window ${WINDOW_MS / 1000} s)`), ''],
    ['init p50 / p99', ...runs.map(run => `${ms(run.initMs, 50)} / ${ms(run.initMs, 99)}`), ''],
    ['PUT p50 / p99', ...runs.map(run => `${ms(run.putMs, 50)} / ${ms(run.putMs, 99)}`), ''],
    ['PUT throughput: all bytes ÷ first init → last confirm', ...runs.map(run => `${(run.putBytes / MiB / run.phaseSeconds).toFixed(1)} MiB/s (${(run.putBytes / MiB).toFixed(0)} MiB)`), ''],
    ['PUT speed of one photo, median', ...runs.map(run => `${percentile(run.putMibps, 50).toFixed(0)} MiB/s`), ''],
    ['confirm p50 / p99', ...runs.map(run => `${ms(run.confirmMs, 50)} / ${ms(run.confirmMs, 99)}`), ''],
    [`gallery polls (${POLLERS} clients, every ~${POLL_MS / 1000} s): count, p50 / p99`, ...runs.map(run => `${run.galleryMs.length}, ${ms(run.galleryMs, 50)} / ${ms(run.galleryMs, 99)}`), ''],
    ['one client asking GET /api/event every 250 ms: p50 / p99 / max', ...runs.map(run => `${ms(run.probeMs, 50)} / ${ms(run.probeMs, 99)} / ${ms(run.probeMs, 100)}`), ''],
    ['load generator\'s own event-loop delay p99 / max', ...runs.map(run => `${run.clientLoopP99.toFixed(0)} ms / ${run.clientLoopMax.toFixed(0)} ms`), ''],
    ['confirm → listed in the gallery, per photo: p50 / p95 / max', ...runs.map(listedCell), 'p95 ≤ 5 s, max ≤ 30 s'],
    ['server CPU per photo, first upload → last photo listed', ...runs.map(run => `${run.cpuPerPhotoMs.toFixed(0)} ms`), ''],
    ['derivation backlog at the last confirm (photos not in the gallery yet)', ...runs.map(run => run.backlogAtLastConfirm), ''],
    ['backlog drained after the last confirm', ...runs.map(run => (run.drainedAfterSeconds === null
      ? `not within ${DRAIN_TIMEOUT_MS / 1000} s: ${run.confirmed - run.derivedAtEnd} left (≈ ${((run.confirmed - run.derivedAtEnd) / Math.max(run.derivationRate, 0.01)).toFixed(0)} s more)`
      : `${run.drainedAfterSeconds.toFixed(0)} s`)), ''],
    ['derivation rate after the uploads', ...runs.map(run => `${run.derivationRate.toFixed(2)} photos/s`), ''],
    ['server CPU during the uploads (user + system)', ...runs.map(run => `${run.serverCpuSeconds.toFixed(0)} s in ${run.phaseSeconds.toFixed(0)} s`), ''],
    ['server peak RSS', ...runs.map(run => `${run.serverPeakRssMb} MB`), ''],
    ['s3rver peak RSS (own process)', ...runs.map(run => (run.storagePeakRssMb === null ? '–' : `${run.storagePeakRssMb} MB`)), ''],
  ]
  const statusRows = (['init', 'put', 'images', 'confirm', 'gallery'] as Step[]).map(step => [step, ...runs.map(run => run.statuses.describe(step))])
  const complaints = runs.flatMap(run => run.serverComplaints.map(line => `- ${run.driver}: \`${line.replace(/`/g, '\'')}\``))
  if (flags['old-clients'] !== undefined) return reportPhoneImages(runs, rows, statusRows)
  writeSection('Load: 300 guests', `
Run: \`npm run bench:load -- --guests ${GUESTS} --photos ${PHOTOS} --window ${WINDOW_MS / 1000} --pollers ${POLLERS} --drain-timeout ${DRAIN_TIMEOUT_MS / 1000}${flags['server-env'].map(pair => ` --server-env ${pair}`).join('')}\`.
${GUESTS} simulated guests, each sending ${PHOTOS} photo${PHOTOS === 1 ? '' : 's'} one after another (init → PUT → confirm, each step
tried again after a transient failure with the upload page's back-off, at most ${MAX_SERVER_FAILURES} server errors in a row), paced
at a random phase so that the uploads spread over a ${WINDOW_MS / 1000} s window (a late guest goes on at once), plus ${POLLERS} clients
polling \`GET /api/gallery\` every ~${POLL_MS / 1000} s until the last guest is done. Photos: ${photos.length} real JPEGs made from noise
(${photos.map(p => `${(p.length / MiB).toFixed(1)}`).join(', ')} MiB; 1600×1200 up to 4032×3024), reused. Guests, pollers and the
load generator share this 2-core machine with the server (and with s3rver, in a process of its own).
All guests come from 127.0.0.1, so the server ran with \`RATE_LIMIT_UPLOADS_PER_MINUTE=${RATE_LIMIT}\` (default 600 per client).
"Lost" compares every confirm that answered 200 with the admin list's \`total\`, the database after the run and the storage.

${table(['measure', ...runs.map(run => run.driver), 'target'], rows)}

Answers by status:

${table(['step', ...runs.map(run => run.driver)], statusRows)}
${complaints.length ? `\nServer log lines that mention an error or a warning (first distinct ones):\n\n${complaints.join('\n')}\n` : ''}`)
  for (const run of runs) {
    const lost = lostOf(run)
    const bad = fiveXx(run)
    console.log(`${run.driver}: ${run.confirmed}/${run.attempted} confirmed, lost ${lost}, 5xx ${bad}, phase ${run.phaseSeconds.toFixed(0)} s, drained ${run.drainedAfterSeconds?.toFixed(0) ?? 'no'}, peak RSS ${run.serverPeakRssMb} MB`)
    if (lost) console.log(`!! ${run.driver}: ${lost} UPLOADS LOST (confirmed 200, then missing)`)
    if (bad) console.log(`!! ${run.driver}: ${bad} 5xx ANSWERS`)
  }
}

const seconds = (values: number[], p: number) => (values.length ? `${(percentile(values, p) / 1000).toFixed(1)} s` : '–')

function listedCell(run: RunReport): string {
  const unlisted = run.neverListed ? ` (${run.neverListed} never listed)` : ''
  return `${seconds(run.listedMs, 50)} / ${seconds(run.listedMs, 95)} / ${seconds(run.listedMs, 100)}${unlisted}`
}

const oldClientsLabel = (run: RunReport) => (run.oldClients === 1 ? 'all old clients (server derives every photo)' : run.oldClients === 0 ? 'all send phone images' : `${Math.round(run.oldClients * 100)} % old clients`)

/** The phone-made images' comparison: the same load with every share of old clients, per driver. */
function reportPhoneImages(runs: RunReport[], rows: (string | number)[][], statusRows: (string | number)[][]) {
  const headers = ['measure', ...runs.map(run => `${run.driver}, ${oldClientsLabel(run)}`), 'target']
  const summary: (string | number)[][] = [
    ['confirm → listed in the gallery, per photo: p50 / p95 / max', ...runs.map(listedCell), 'p95 ≤ 5 s, max ≤ 30 s'],
    ['phone images accepted at confirm', ...runs.map(run => `${run.phoneAccepted} of ${run.confirmed}`), ''],
    ['listed in GET /api/gallery at the end (walked page by page)', ...runs.map(run => `${run.listedAtEnd} of ${run.confirmed}`), 'all'],
    ['server CPU per photo, first upload → last photo listed', ...runs.map(run => `${run.cpuPerPhotoMs.toFixed(0)} ms`), '≥ 5× lower than derivation'],
  ]
  const baseline = new Map(runs.filter(run => run.oldClients === 1).map(run => [run.driver, run.cpuPerPhotoMs]))
  summary.push(['CPU per photo: derivation ÷ this run', ...runs.map(run => (baseline.has(run.driver) ? `${(baseline.get(run.driver)! / Math.max(run.cpuPerPhotoMs, 1)).toFixed(1)}×` : '–')), '≥ 5×'])
  writeSection('Load with phone-made public images', `
Run: \`npm run bench:load -- --guests ${GUESTS} --photos ${PHOTOS} --window ${WINDOW_MS / 1000} --pollers ${POLLERS} --drain-timeout ${DRAIN_TIMEOUT_MS / 1000} --drivers ${DRIVERS.join(',')} --old-clients ${OLD_CLIENT_SHARES.join(',')}\`
on ${new Date().toISOString().slice(0, 10)}. The load of "Load: 300 guests" (see there), with each guest sending its photo's three public images as the upload
page does (\`POST /api/uploads/:id/public-images\`, three PUTs side by side, then confirm), except a share of old clients that send
none. The images were made with sharp before the run, off the measured path (display 2048 px JPEG, 480 and 960 px WebP).
"Confirm → listed": from the confirm's 200 at the guest to the moment the photo's display image is recorded (\`derived_at\`, written
with \`display_key\` in one UPDATE, which is what the gallery's WHERE asks of an approved photo), same clock; a photo listed by the
confirm itself counts 0. The gallery is also walked through the API at the end. "Server CPU per photo": the server process's user +
system time from the first upload until the last photo was listed, ÷ photos confirmed (it includes serving init, PUTs, confirms and
${POLLERS} gallery pollers, the same in every run).

${table(headers, summary)}

All measures:

${table(headers, rows)}

Answers by status:

${table(['step', ...runs.map(run => `${run.driver}, ${oldClientsLabel(run)}`)], statusRows)}
`)
  for (const run of runs) console.log(`${run.driver}, ${oldClientsLabel(run)}: listed p50/p95/max ${listedCell(run)}, CPU/photo ${run.cpuPerPhotoMs.toFixed(0)} ms, accepted ${run.phoneAccepted}/${run.confirmed}, listed at end ${run.listedAtEnd}`)
}

async function venue() {
  const options: Omit<VenueOptions, 'entry'> = {
    phones: Number(flags['venue-phones']), minutes: Number(flags['venue-minutes']), speed: Number(flags['venue-speed']),
    seeded: 2000, uploadsPerMinute: 8, approvalsPerMinute: 3, rejectionsPerMinute: 1,
  }
  const runs: { label: string, result: VenueResult }[] = []
  // Found from the current directory; the results name it from the repository's root, the same in any clone.
  const before = flags['venue-before'] ? resolve(flags['venue-before']) : undefined
  const builds = [...(before ? [{ label: 'before (main\'s build)', entry: before }] : []), { label: 'this build', entry: SERVER_ENTRY }]
  for (const build of builds) {
    console.log(`▶ venue, ${build.label}: ${options.phones} phones + projector, ${options.minutes} evening minutes at ${options.speed}× speed`)
    const result = await runVenue({ ...options, entry: build.entry })
    console.log(`${build.label}: ${result.polls} polls (${result.ok} × 200, ${result.notModified} × 304, ${result.failed} failed), ${(result.bytesPerMinute / 1e6).toFixed(2)} MB per evening minute, ${result.changes} moderation changes`)
    runs.push({ label: build.label, result })
  }
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`
  const rows = runs.map(({ label, result }) => [label, result.polls, result.ok, result.notModified, result.failed, mb(result.bytes), mb(result.bytesPerMinute)])
  const ratio = runs.length === 2 ? runs[0]!.result.bytesPerMinute / runs[1]!.result.bytesPerMinute : undefined
  writeSection('Venue polling', `
Run: \`npx tsx bench/load.ts --venue${before ? ` --venue-before ${relative(ROOT, before)}` : ''} --venue-minutes ${options.minutes} --venue-speed ${options.speed}\`
${before ? `(\`${relative(ROOT, before)}\` is main's build from before ETags, compression and the gallery cache). ` : ''}${options.phones} phones on \`/galeria\` each polling \`/api/gallery?limit=24\` every 10 s and
a projector polling three pages of 100 every 10 s, over ${options.minutes} evening minutes run ${options.speed}× faster than real time (a 10 s poll
every ${(10 / options.speed).toFixed(1)} s; compressed time). ${options.seeded.toLocaleString('en')} approved photos at the start; pre-moderation; ${options.uploadsPerMinute} uploads arrive
per evening minute (confirmed rows written straight into the database), the admin approves ${options.approvalsPerMinute} and rejects ${options.rejectionsPerMinute} a minute
through the API. Clients behave as browsers with a cache: \`accept-encoding: gzip, deflate, br\`, and \`If-None-Match\` once they hold
an answer with an ETag (main's build sends none and compresses nothing). Bytes: status line, headers and body of every polling answer.

${table(['build', 'polls', '200', '304', 'failed', 'bytes in total', 'bytes per evening minute'], rows)}
${ratio
  ? `
Before ÷ after, bytes per evening minute: **${ratio.toFixed(1)}×** (target ≥ 5×).
`
  : ''}`)
}

/** This build's venue polling without hearts and with a steady stream of them, side by side. */
async function venueHearts() {
  const heartsPerSecond = Number(flags['venue-hearts'])
  const options: Omit<VenueOptions, 'entry'> = {
    phones: Number(flags['venue-phones']), minutes: Number(flags['venue-minutes']), speed: Number(flags['venue-speed']),
    seeded: 2000, uploadsPerMinute: 8, approvalsPerMinute: 3, rejectionsPerMinute: 1,
  }
  const runs: { label: string, result: VenueResult }[] = []
  for (const hearts of [0, heartsPerSecond]) {
    const label = hearts ? `${hearts} heart a second` : 'no hearts (today)'
    console.log(`▶ venue, ${label}: ${options.phones} phones + projector, ${options.minutes} evening minutes at ${options.speed}× speed`)
    const result = await runVenue({ ...options, entry: SERVER_ENTRY, heartsPerSecond: hearts })
    console.log(`${label}: ${result.polls} polls (${result.ok} × 200, ${result.notModified} × 304, ${result.failed} failed), ${result.pollsPerSecond.toFixed(1)} polls/s, ${(result.bytesPerMinute / 1e6).toFixed(2)} MB per evening minute, ${result.hearts} hearts`)
    runs.push({ label, result })
  }
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`
  const rows = runs.map(({ label, result }) => [label, result.hearts, result.polls, result.pollsPerSecond.toFixed(1), result.ok, result.notModified, result.failed, mb(result.bytes), mb(result.bytesPerMinute), Math.round(result.bytes / result.polls)])
  writeSection('Venue polling with hearts', `
Run: \`npx tsx bench/load.ts --venue --venue-hearts ${heartsPerSecond} --venue-minutes ${options.minutes} --venue-speed ${options.speed}\`
The venue polling above (${options.phones} phones polling \`/api/gallery?limit=24\` every 10 s, a projector polling three pages of 100, uploads
arriving and moderated), on this build, first without hearts (as today), then with guests hearting the photos on the phones' first page
${heartsPerSecond} time(s) a second, each heart from a new device through \`POST /api/gallery/:id/heart\`. ${options.minutes} evening minutes at ${options.speed}× speed;
hearts are paced in real time, since the gallery's answer takes them in at most once a real second (docs/api.md, "Hearts and comments").

${table(['run', 'hearts', 'polls', 'polls/s', '200', '304', 'failed', 'bytes in total', 'bytes per evening minute', 'bytes per poll'], rows)}
`)
}

async function main() {
  if (flags.venue && flags['venue-hearts']) return venueHearts()
  if (flags.venue) return venue()
  const photos = await fixtures()
  console.log(`fixtures: ${photos.map(p => `${(p.length / MiB).toFixed(2)} MiB`).join(', ')}`)
  // As the upload page would make them, before the run: off the measured path.
  const images: PhoneImages[] = []
  for (const photo of photos) images.push(await makePhoneImages(photo))
  const runs: RunReport[] = []
  for (const driver of DRIVERS) {
    for (const oldClients of OLD_CLIENT_SHARES) {
      console.log(`▶ ${driver}: ${GUESTS} guests × ${PHOTOS} photos over ${WINDOW_MS / 1000} s, ${POLLERS} gallery pollers, ${Math.round(oldClients * 100)} % old clients`)
      runs.push(await runOnce(driver, photos, images, oldClients))
    }
  }
  report(runs, photos)
}

await main()
