// A 300-guest burst: every guest sends one small photo (init with its hash, key and time taken → PUT → confirm) at the
// same moment, each from its own loopback address (127.1.x.y: a client of its own for the rate
// limits, as guests on a venue's Wi-Fi behind no proxy) and with its own cookie jar (the guest
// device cookie init sets). Reports each step's p50 / p95 / max and the answers by status, per
// round, then the medians over the rounds. `--before <.output/server/index.mjs of another build>`
// measures that build too, alternating with this one round by round (the machine is shared: what
// the others run moves both alike). Run: npm run bench -- burst [--guests 300 --rounds 3
// --drivers local,s3 --before …]. Traffic goes to 127.0.0.0/8 only; every guest sends one photo.
import { execFileSync } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { request as httpRequest, Agent } from 'node:http'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { startS3, type TestS3 } from '../tests/support/s3'
import { SERVER_ENTRY, startServer } from '../tests/support/server'
import { cpuMs, percentile, table, writeSection } from './lib'

const { values: flags } = parseArgs({
  options: {
    'guests': { type: 'string', default: '300' },
    'rounds': { type: 'string', default: '3' },
    'drivers': { type: 'string', default: 'local,s3' },
    'before': { type: 'string' },
    /** Writes a CPU profile of each server into this folder (bench/support/cpu-profile.cjs). */
    'profile': { type: 'string' },
    /** Appends each server's output (stdout and stderr) to this file once it has stopped. */
    'server-log': { type: 'string' },
    /** Photos the server has served (one after another, from another address) before the burst: its code warmed up. */
    'served-before': { type: 'string', default: '1' },
    /** Prints the table without writing bench/RESULTS.md. */
    'dry-run': { type: 'boolean', default: false },
  },
})
const GUESTS = Number(flags.guests)
const ROUNDS = Number(flags.rounds)
const SERVED_BEFORE = Math.max(1, Number(flags['served-before']))
const DRIVERS = flags.drivers.split(',').map(name => name.trim()).filter(Boolean) as ('local' | 's3')[]
const REQUEST_TIMEOUT_MS = 60_000
const TARGET_P95_MS = 1000

type Step = 'init' | 'put' | 'confirm'
const STEPS: Step[] = ['init', 'put', 'confirm']

interface Answer { status: number | string, ms: number, body: any, cookies: string[] }

/** One request over the guest's own agent (its loopback address); failures are a status, never thrown. */
function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve) => {
    const request = httpRequest(url, { method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let parsed: any = null
        try {
          parsed = text ? JSON.parse(text) : null
        }
        catch { /* not JSON */ }
        const cookies = (response.headers['set-cookie'] ?? []).map(line => line.split(';')[0]!)
        resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, body: parsed, cookies })
      })
    })
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', error => resolve({ status: `error ${(error as NodeJS.ErrnoException).code ?? error.message}`, ms: performance.now() - started, body: null, cookies: [] }))
    request.end(body)
  })
}

/** A small photo of noise, different bytes (so a different hash) for every guest. */
function photoOf(guest: number): Promise<Buffer> {
  const raw = Buffer.alloc(64 * 48 * 3)
  let state = (guest + 1) * 2654435761 >>> 0 || 1
  for (let i = 0; i < raw.length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    raw[i] = state & 0xff
  }
  return sharp(raw, { raw: { width: 64, height: 48, channels: 3 } }).jpeg({ quality: 80 }).toBuffer()
}

/** Guest g's own loopback address: 127.1.0.1 upwards. */
const addressOf = (guest: number) => `127.1.${Math.floor((guest + 1) / 256)}.${(guest + 1) % 256}`

interface Round {
  times: Record<Step, number[]>
  statuses: Record<Step, Map<string, number>>
  confirmed: number
  wallSeconds: number
  load: number
  /** The server's CPU time (user + system) during the burst, per guest: what the burst costs, whatever the machine's load. */
  cpuPerGuestMs: number
  /** From the burst's start until every photo had its public images (the derivation backlog empty), in s. */
  derivedSeconds: number
  /** The server's CPU time per guest until then: the answers and the photo's derivation. */
  cpuWithDerivationMs: number
}

/** Polls /api/health (from an address of its own) until no upload waits for derivation; the time it took, in s. */
async function derivationsDone(base: string, started: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, localAddress: '127.2.0.2' })
  try {
    for (;;) {
      const health = await send(agent, `${base}/api/health`, 'GET', {})
      if (health.status === 200 && health.body?.derivationBacklog === 0) return (performance.now() - started) / 1000
      if (performance.now() - started > 10 * REQUEST_TIMEOUT_MS) throw new Error(`derivations not done: ${JSON.stringify(health.body)}`)
      await new Promise(resolve => setTimeout(resolve, 200))
    }
  }
  finally {
    agent.destroy()
  }
}

function stopChildrenRunning(entry: string) {
  let listing = ''
  try {
    listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  }
  catch { /* no children */ }
  for (const line of listing.split('\n')) {
    const [pid, ...args] = line.trim().split(/\s+/)
    if (pid && args.includes(entry)) process.kill(Number(pid), 'SIGKILL')
  }
}

/** A server start, tried again when the shared machine was too busy to start it within the support helper's wait. */
async function startPatiently(env: Record<string, string>, entry: string, attempts = 3): ReturnType<typeof startServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(env, undefined, entry)
    }
    catch (error) {
      // The helper leaves the server it gave up on running: this process's child on that entry.
      stopChildrenRunning(entry)
      if (attempt >= attempts || !String(error).includes('did not start')) throw error
      console.warn(`the server did not start (attempt ${attempt}); trying again`)
    }
  }
}

async function burst(entry: string, driver: 'local' | 's3', photos: Buffer[], profileDir?: string): Promise<Round> {
  let s3: TestS3 | undefined
  if (driver === 's3') s3 = await startS3()
  const profiling: Record<string, string> = profileDir ? { NODE_OPTIONS: `--require ${new URL('./support/cpu-profile.cjs', import.meta.url).pathname}`, BENCH_CPU_PROFILE_DIR: profileDir } : {}
  const server = await startPatiently({ ...s3?.env, ...profiling }, entry)
  const agents = photos.map((_, guest) => new Agent({ keepAlive: true, localAddress: addressOf(guest), maxSockets: 2 }))
  try {
    const base = server.url
    const times: Record<Step, number[]> = { init: [], put: [], confirm: [] }
    const statuses: Record<Step, Map<string, number>> = { init: new Map(), put: new Map(), confirm: new Map() }
    const record = (step: Step, answer: Answer) => {
      times[step].push(answer.ms)
      statuses[step].set(String(answer.status), (statuses[step].get(String(answer.status)) ?? 0) + 1)
    }
    let confirmed = 0
    const guest = async (g: number, bytes = photos[g]!, agent = agents[g]!) => {
      const hash = createHash('sha256').update(bytes).digest('hex')
      const init = await send(agent, `${base}/api/uploads/init`, 'POST', { 'content-type': 'application/json' },
        // As the page sends it: its key for the file, and when the photo was taken (its EXIF date).
        JSON.stringify({ fileName: `IMG_${1000 + g}.JPG`, contentType: 'image/jpeg', size: bytes.length, hash, author: `Convidado ${g}`, message: 'Felicidades!', clientKey: randomUUID(), takenAt: new Date(Date.now() - 60_000 * g).toISOString() }))
      record('init', init)
      if (init.status !== 201) return
      const put = await send(agent, init.body.upload.url, 'PUT', init.body.upload.headers, bytes)
      record('put', put)
      if (put.status !== 200) return
      const cookie = init.cookies.join('; ')
      const confirm = await send(agent, `${base}/api/uploads/${init.body.id}/confirm`, 'POST', { 'x-undo-token': init.body.undoToken, ...(cookie ? { cookie } : {}) })
      record('confirm', confirm)
      if (confirm.status === 200) confirmed++
    }
    // A server that has served the evening's first photo (its routes loaded), or its first
    // `--served-before` photos (its code compiled hot, as after an afternoon), from another address.
    const early = new Agent({ keepAlive: true, localAddress: '127.2.0.1' })
    for (let served = 0; served < SERVED_BEFORE; served++) await guest(GUESTS + served, await photoOf(GUESTS + served), early)
    early.destroy()
    for (const step of STEPS) {
      if (statuses[step].size !== 1 || !statuses[step].has(step === 'init' ? '201' : '200')) throw new Error(`the first photo: ${step} ${describe(statuses[step])}`)
      statuses[step].clear()
      times[step].length = 0
    }
    confirmed = 0
    const load = loadavg()[0]!
    const started = performance.now()
    const cpuBefore = cpuMs(server.proc.pid!)
    await Promise.all(photos.map((_, g) => guest(g)))
    const cpuPerGuestMs = (cpuMs(server.proc.pid!) - cpuBefore) / GUESTS
    const wallSeconds = (performance.now() - started) / 1000
    const derivedSeconds = await derivationsDone(base, started)
    const cpuWithDerivationMs = (cpuMs(server.proc.pid!) - cpuBefore) / GUESTS
    return { times, statuses, confirmed, wallSeconds, load, cpuPerGuestMs, derivedSeconds, cpuWithDerivationMs }
  }
  finally {
    for (const agent of agents) agent.destroy()
    await server.stop()
    if (flags['server-log']) appendFileSync(flags['server-log'], `=== ${entry} ${driver}\n${server.output()}\n`)
    await s3?.stop()
  }
}

const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(0)}`
const median = (values: number[]) => percentile(values, 50)
const describe = (byStatus: Map<string, number>) => [...byStatus].sort().map(([status, n]) => `${status}: ${n}`).join(', ')

const photos = await Promise.all(Array.from({ length: GUESTS }, (_, g) => photoOf(g)))
if (new Set(photos.map(photo => createHash('sha256').update(photo).digest('hex'))).size !== GUESTS) throw new Error('two guests would send the same bytes')
const builds = [...(flags.before ? [{ label: 'before', entry: flags.before }] : []), { label: 'after', entry: SERVER_ENTRY }]
const rounds = new Map<string, Round[]>()
const roundRows: (string | number)[][] = []
for (const driver of DRIVERS) {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of builds) {
      const result = await burst(build.entry, driver, photos, flags.profile)
      const key = `${build.label} ${driver}`
      rounds.set(key, [...(rounds.get(key) ?? []), result])
      const cells = STEPS.map(step => `${ms(result.times[step], 50)} / ${ms(result.times[step], 95)} / ${ms(result.times[step], 100)}`)
      const line = [build.label, driver, round, result.load.toFixed(1), ...cells, `${result.confirmed}/${GUESTS}`, `${result.wallSeconds.toFixed(1)} s`, result.cpuPerGuestMs.toFixed(1), `${result.derivedSeconds.toFixed(1)} s`, result.cpuWithDerivationMs.toFixed(1)]
      roundRows.push(line)
      console.log(line.join(' | '), '|', STEPS.map(step => `${step} ${describe(result.statuses[step])}`).join('; '))
    }
  }
}

const summaryRows: (string | number)[][] = [...rounds].map(([key, results]) => {
  const medianOf = (step: Step, p: number) => `${median(results.map(result => percentile(result.times[step], p))).toFixed(0)}`
  return [key, results.length, median(results.map(result => result.load)).toFixed(1),
    ...STEPS.map(step => `${medianOf(step, 50)} / ${medianOf(step, 95)}`),
    median(results.map(result => result.cpuPerGuestMs)).toFixed(1),
    `${median(results.map(result => result.derivedSeconds)).toFixed(1)} s`,
    median(results.map(result => result.cpuWithDerivationMs)).toFixed(1),
    results.map(result => `${result.confirmed}`).join(', ')]
})
const statusRows = [...rounds].flatMap(([key, results]) => STEPS.map((step) => {
  const merged = new Map<string, number>()
  for (const result of results) for (const [status, n] of result.statuses[step]) merged.set(status, (merged.get(status) ?? 0) + n)
  return [key, step, describe(merged)]
}))

const body = `
Run: \`npx tsx bench/burst.ts --guests ${GUESTS} --rounds ${ROUNDS} --drivers ${DRIVERS.join(',')}${SERVED_BEFORE > 1 ? ` --served-before ${SERVED_BEFORE}` : ''}${flags.before ? ' --before <the build before>' : ''}\` on ${new Date().toISOString().slice(0, 16)} UTC.
${GUESTS} guests each send one small photo (a ${(photos[0]!.length / 1024).toFixed(1)} KiB JPEG of noise, different bytes each, with its hash, a key for the file and the time it was taken, as the page sends them) at the same
moment: init → PUT → confirm, one after another, each guest from its own loopback address (127.1.x.y, so a client of its own
for the rate limits, default \`RATE_LIMIT_UPLOADS_PER_MINUTE\`) and with its own guest cookie (a connection of its own, kept
alive from init to confirm); the server has served ${SERVED_BEFORE === 1 ? 'one photo before it (its routes loaded, its code not yet compiled hot)' : `${SERVED_BEFORE} photos before it, one after another (its code compiled hot, as after an afternoon of guests)`}. Server and load generator share this 2-core machine, which other people's work was using too: the load
average (1 min) at each burst's start is given. Times in ms; "before" and "after" ran alternately, round by round.
"Server CPU per guest" is the server's CPU time (user + system) from the burst's start until the last guest's answer, divided
by the guests; "with derivation" until every photo had its public images (\`derivationBacklog\` 0 in \`/api/health\`, polled
every 200 ms from another address), and "all derived after" is that moment, from the burst's start.

Medians over the rounds of each round's p50 / p95 (target: init and confirm p95 ≤ ${TARGET_P95_MS} ms):

${table(['build, driver', 'rounds', 'load avg', 'init p50 / p95', 'PUT p50 / p95', 'confirm p50 / p95', 'server CPU per guest (ms)', 'all derived after', 'server CPU per guest with derivation (ms)', 'confirmed (each round)'], summaryRows)}

Every round (p50 / p95 / max):

${table(['build', 'driver', 'round', 'load avg', 'init', 'PUT', 'confirm', 'confirmed', 'wall', 'server CPU per guest (ms)', 'all derived after', 'server CPU per guest with derivation (ms)'], roundRows)}

Answers by status, all rounds:

${table(['build, driver', 'step', 'statuses'], statusRows)}
`
console.log(body)
if (!flags['dry-run']) writeSection(SERVED_BEFORE > 1 ? 'A 300-guest burst, the server warmed up' : 'A 300-guest burst', body)
