// The printed guestbook at a wedding's worth of messages and more: 20,000 approved messages seeded
// straight into the server's database, then GET /api/admin/guestbook.pdf while a client polls
// GET /api/health every 10 ms. Measures the book's build time (to its last byte), its size and
// pages, how many of the messages it holds, the server's peak memory, and the longest the server
// kept the poller waiting (its event loop held by the book: a poll answers in a few ms at rest).
// `--before ENTRY` measures another build's server too (main's, for "before" numbers), in turn with
// this one, each on a fresh database; `--rounds` builds per server.
// Run: npx tsx --tsconfig .nuxt/tsconfig.server.json bench/guestbook-book.ts [--before /path/.output/server/index.mjs]
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { fetchFresh, login } from '../tests/support/http'
import { openDatabase, seedGuestbookMessages } from '../tests/support/seed'
import { SERVER_ENTRY, startServer } from '../tests/support/server'
import { peakRssMb, percentile, table, writeSection } from './lib'

const { values: flags } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '2' },
    before: { type: 'string' },
    /** Writes nothing to RESULTS.md (a trial run). */
    dry: { type: 'boolean', default: false },
  },
})
const MESSAGES = Number(flags.messages)
const ROUNDS = Math.max(1, Number(flags.rounds))
const POLL_EVERY_MS = 10

interface Turn { wallMs: number, cpuMs: number }
interface Stalls { longest: Turn, mostCpu: Turn }
interface Round { buildMs: number, firstByteMs: number, bytes: number, pages: number, held: number, longestPollMs: number, p99PollMs: number, polls: number, stalls: Stalls }

/** The server's longest event-loop stalls since the last call (bench/support/event-loop-stalls.cjs). */
async function stallsSinceLast(pid: number, file: string): Promise<Stalls> {
  rmSync(file, { force: true })
  process.kill(pid, 'SIGUSR2')
  for (let tries = 0; ; tries++) {
    await new Promise(resolve => setTimeout(resolve, 50))
    try {
      return JSON.parse(readFileSync(file, 'utf8'))
    }
    catch (error) {
      if (tries > 200) throw error
    }
  }
}

/** Polls /api/health every 10 ms (the next as soon as the last answered, if later) until stopped: each poll's wait. */
function poller(url: string) {
  const waits: number[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      try {
        const response = await fetchFresh(`${url}/api/health`)
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`health answered ${response.status}`)
      }
      catch (error) {
        // Logged, and its wait counted like any other: the poller goes on.
        console.warn('poll failed:', String(error))
      }
      waits.push(performance.now() - started)
      const rest = POLL_EVERY_MS - (performance.now() - started)
      if (rest > 0) await new Promise(resolve => setTimeout(resolve, rest))
    }
  })()
  return async () => {
    running = false
    await done
    return waits
  }
}

async function buildBook(url: string, cookie: string, stalls: () => Promise<Stalls>): Promise<Round> {
  const stop = poller(url)
  await new Promise(resolve => setTimeout(resolve, 200))
  await stalls()
  const started = performance.now()
  const response = await fetchFresh(`${url}/api/admin/guestbook.pdf`, { headers: { cookie } })
  const firstByteMs = performance.now() - started
  if (response.status !== 200) throw new Error(`the book answered ${response.status}: ${await response.text()}`)
  const pdf = Buffer.from(await response.arrayBuffer())
  const buildMs = performance.now() - started
  const waits = await stop()
  const during = await stalls()
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString())?.[1])
  const text = execFileSync('pdftotext', ['-', '-'], { input: pdf, maxBuffer: 1 << 30 }).toString()
  const held = text.match(/— Convidado \d+/g)?.length ?? 0
  return { buildMs, firstByteMs, bytes: pdf.length, pages, held, longestPollMs: Math.max(...waits), p99PollMs: percentile(waits, 99), polls: waits.length, stalls: during }
}

async function measure(entry: string) {
  const stallsFile = join(tmpdir(), `book-stalls-${process.pid}.json`)
  const server = await startServer({ NODE_OPTIONS: `--require ${join(import.meta.dirname, 'support/event-loop-stalls.cjs')}`, BENCH_STALLS_FILE: stallsFile }, undefined, entry)
  const stalls = () => stallsSinceLast(server.proc.pid!, stallsFile)
  try {
    const db = openDatabase(server.dbPath)
    const seeding = performance.now()
    await seedGuestbookMessages(db, MESSAGES)
    const seedMs = performance.now() - seeding
    db.close()
    const cookie = await login(server.url)
    await stalls()
    const stopIdle = poller(server.url)
    await new Promise(resolve => setTimeout(resolve, 2000))
    const idle = await stopIdle()
    const idleStalls = await stalls()
    const rounds: Round[] = []
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(await buildBook(server.url, cookie, stalls).catch((error) => {
        throw new Error(`${error}; the server said:\n${server.output().slice(-3000)}`)
      }))
    }
    return { rounds, seedMs, idleLongestMs: Math.max(...idle), idleStalls, peakRssMb: peakRssMb(server.proc.pid!) }
  }
  finally {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

const ms = (value: number) => `${Math.round(value)} ms`
const s = (value: number) => `${(value / 1000).toFixed(1)} s`
const builds = [...(flags.before ? [['before', flags.before] as const] : []), ['after', SERVER_ENTRY] as const]
const rows: (string | number)[][] = []
for (const [label, entry] of builds) {
  const result = await measure(entry)
  console.log(label, JSON.stringify(result))
  for (const [index, round] of result.rounds.entries()) {
    rows.push([`${label}, build ${index + 1}`, `${round.held.toLocaleString('en')} of ${MESSAGES.toLocaleString('en')}`, round.pages, `${(round.bytes / 1048576).toFixed(1)} MiB`,
      s(round.buildMs), ms(round.firstByteMs), ms(round.stalls.mostCpu.cpuMs), `${ms(round.stalls.longest.wallMs)} (${ms(round.stalls.longest.cpuMs)})`,
      ms(round.longestPollMs), ms(round.p99PollMs), `${result.peakRssMb} MB`])
  }
  rows.push([`${label}, at rest (2 s before the builds)`, '', '', '', '', '', ms(result.idleStalls.mostCpu.cpuMs), `${ms(result.idleStalls.longest.wallMs)} (${ms(result.idleStalls.longest.cpuMs)})`, ms(result.idleLongestMs), '', ''])
}

const body = `Run: \`npx tsx --tsconfig .nuxt/tsconfig.server.json bench/guestbook-book.ts --before <main's .output/server/index.mjs>\`.
${MESSAGES.toLocaleString('en')} approved written messages (one a second, "Recado número N: felicidades aos noivos", by "Convidado N")
seeded straight into the server's database in one transaction; then \`GET /api/admin/guestbook.pdf\` ${ROUNDS} times in a row
while one client polls \`GET /api/health\` every ${POLL_EVERY_MS} ms (the next poll as soon as the last answered, if that took longer).
Inside the server (bench/support/event-loop-stalls.cjs, preloaded) a timer due every 5 ms notes each late turn of the event loop:
"CPU in one turn" is the most CPU time the server used between two turns, the work that held the loop (errs long: it counts the
server's other threads too); "wall" is the longest turn by the clock, which on this shared machine also counts the server waiting for a core.
"Longest poll" is the longest a poll waited, seen from outside (the book's hold, the machine's load and a poll's own few ms).
"Held" counts the authors' lines in the PDF's text (pdftotext). Peak RSS is the server's (VmHWM) after all builds.
Shared 2-core machine, other engineers' work running meanwhile: the times are noisy, the ratios and the stalls' order of size are what count.

${table(['server', 'messages held', 'pages', 'size', 'build (last byte)', 'first byte', 'longest stall: CPU in one turn', 'longest turn: wall (its CPU)', 'longest poll', 'p99 poll', 'server peak RSS'], rows)}
`
console.log(body)
if (!flags.dry) writeSection('The printed guestbook at 20,000 messages', body)
