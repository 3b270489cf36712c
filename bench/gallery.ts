// Gallery and admin list under load (issue 4): 10,000 approved, confirmed uploads seeded straight
// into the server's database, then autocannon over loopback against the first gallery page, a page
// ~9,000 items deep, and the admin list searched with `q`; each against a bare node:http server
// answering the same SQL through the same @libsql/client on the same file in the same run.
// Issue 14 adds the first page asked with If-None-Match (all 304) and the bytes of a 100-item page
// (identity, gzip, br); `--entry` measures another build's server (main's, for "before" numbers).
// Run: npm run bench (or npx tsx bench/gallery.ts [--rows 10000 --duration 10 --connections 10]).
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { createClient, type InStatement } from '@libsql/client'
import { encodeUploadCursor } from '../shared/cursor'
import { containsPattern, searchTextOf } from '../shared/search'
import { api, login } from '../tests/support/http'
import { freePort } from '../tests/support/ports'
import { SERVER_ENTRY, startServer } from '../tests/support/server'
import { percentile, startChild, table, writeSection } from './lib'

const { values: flags } = parseArgs({
  options: {
    'rows': { type: 'string', default: process.env.BENCH_GALLERY_ROWS ?? '10000' },
    'duration': { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    'warmup': { type: 'string', default: '2' },
    'connections': { type: 'string', default: '10' },
    'rounds': { type: 'string', default: '5' },
    'q': { type: 'string', default: 'felicidades' },
    /** Writes the server's V8 CPU profile (.cpuprofile) into this folder: where does its time go? */
    'server-cpu-prof': { type: 'string' },
    /** Measures only the targets whose key is listed (first, deep, q, first304), e.g. to profile one of them. */
    'only': { type: 'string', default: 'first,deep,q,first304' },
    /** Another build's server entry (e.g. /work/main/.output/server/index.mjs): its numbers go to the console only. */
    'entry': { type: 'string' },
  },
})
const ROWS = Number(flags.rows)
const DURATION = Number(flags.duration)
const WARMUP = Number(flags.warmup)
const CONNECTIONS = Number(flags.connections)
const ROUNDS = Math.max(1, Number(flags.rounds))
const DEEP = Math.floor(ROWS * 0.9)
const Q = flags.q

const AUTHORS = ['João', 'Maria José', 'Ana Lúcia', 'Bruno', 'Inês', 'Zoë', 'François', 'Müller', 'Sofía', 'Álvaro',
  'Chloé', 'Noémie', 'Łukasz', 'Tia Conceição', 'Vovó Zezé', 'Renée', 'Pedro', 'Joana', 'Íris', '']
const MESSAGES = ['Parabéns aos noivos!', 'Felicidades, que sejam muito felizes ❤️', 'Que festa linda!', '',
  'Muchas felicidades a los dos', 'Félicitations aux mariés !', 'A dança foi incrível', 'Saúde! 🥂', '',
  'Vocês merecem tudo de bom', 'Olha a tia Conceição na pista', 'Que alegria estar aqui com vocês', '',
  'Beijos da família de São Paulo', 'Um brinde ao amor', 'Smile! 📸']

/** Small deterministic generator, so every run seeds the same event. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4294967296
  }
}

/** Inserts `count` approved, confirmed, already-derived uploads spread over a six-hour evening. */
async function seed(dbPath: string, count: number) {
  const client = createClient({ url: `file:${dbPath}`, timeout: 5000 })
  const next = random(42)
  const start = Date.parse('2026-12-12T18:00:00.000Z')
  const span = 6 * 3600_000
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!
  const columns = ['id', 'status', 'kind', 'author', 'message', 'search_text', 'file_name', 'content_type', 'size', 'width', 'height',
    'duration_sec', 'storage_key', 'thumb_key', 'display_key', 'poster_key', 'derived_at', 'created_at', 'confirmed_at', 'updated_at']
  const sql = `insert into uploads (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`
  for (let done = 0; done < count; done += 500) {
    const batch: InStatement[] = []
    for (let i = done; i < Math.min(count, done + 500); i++) {
      const id = randomBytes(15).toString('base64url')
      const video = next() < 0.08
      const author = pick(AUTHORS)
      const message = pick(MESSAGES)
      const createdAt = start + Math.floor(next() * span)
      const confirmedAt = createdAt + 2000 + Math.floor(next() * 20_000)
      const token = randomBytes(12).toString('base64url')
      const storageKey = video ? `media/${id}-${token}.mp4` : `orig/${id}-${token}.jpg`
      const derived = (variant: string, extension: string) => `media/${id}-${randomBytes(12).toString('base64url')}-${variant}.${extension}`
      batch.push({
        sql,
        args: [id, 'approved', video ? 'video' : 'photo', author, message, searchTextOf(author, message),
          video ? `VID_${i}.MP4` : `IMG_${i}.JPG`, video ? 'video/mp4' : 'image/jpeg',
          video ? 20_000_000 + i : 2_000_000 + i, video ? 1920 : 4032, video ? 1080 : 3024, video ? 12.5 : null,
          storageKey, video ? null : derived('thumb', 'webp'), video ? null : derived('display', 'jpg'),
          video ? derived('poster', 'jpg') : null, confirmedAt + 1500, createdAt, confirmedAt, confirmedAt],
      })
    }
    await client.batch(batch, 'write')
  }
  const deep = await client.execute({
    sql: `select created_at, id from uploads where status = 'approved' and confirmed_at is not null order by created_at desc, id desc limit 1 offset ?`,
    args: [DEEP - 1],
  })
  const row = deep.rows[0]!
  const plans: Record<string, string> = {}
  const explain = async (name: string, statement: string, args: (string | number)[]) => {
    const { rows } = await client.execute({ sql: `explain query plan ${statement}`, args })
    plans[name] = rows.map(r => String(r.detail)).join('; ')
  }
  await explain('gallery, deep page', `select id from uploads where (status = ? and confirmed_at IS NOT NULL AND (kind = 'video' OR display_key IS NOT NULL) and (created_at, id) < (?, ?)) order by created_at desc, id desc limit 25`, ['approved', Number(row.created_at), String(row.id)])
  await explain('admin list, q: page', `select * from uploads where (confirmed_at is not null and search_text like ? escape '\\') order by created_at desc, id desc limit 51`, [containsPattern(Q)])
  await explain('admin list, q: total', `select count(*) from uploads where (confirmed_at is not null and search_text like ? escape '\\')`, [containsPattern(Q)])
  client.close()
  return { deepCursor: encodeUploadCursor({ createdAt: new Date(Number(row.created_at)), id: String(row.id) }), plans }
}

interface Measured { rps: number, p50: number, p99: number, bad: number, bytesPerAnswer: number }

interface Tally { requests: number, seconds: number, latencies: number[], bad: number, bytes: number }

/** One autocannon run; every response time is kept, so percentiles over several runs are exact. */
async function run(url: string, headers: Record<string, string>, seconds: number, tally?: Tally) {
  // Without a callback autocannon returns its tracker, an event emitter that is also a promise.
  const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }) as unknown as autocannon.Instance & Promise<autocannon.Result>
  if (tally) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => tally.latencies.push(ms))
  const result = await instance
  if (tally) {
    tally.requests += result.requests.total
    tally.seconds += result.duration
    // A 304 is the answer asked for, not a failure.
    tally.bad += result.non2xx - (result['3xx'] ?? 0) + result.errors
    tally.bytes += result.throughput.total
  }
}

const newTally = (): Tally => ({ requests: 0, seconds: 0, latencies: [], bad: 0, bytes: 0 })

const summary = (tally: Tally): Measured => ({
  rps: tally.requests / tally.seconds,
  p50: percentile(tally.latencies, 50),
  p99: percentile(tally.latencies, 99),
  bad: tally.bad,
  bytesPerAnswer: tally.bytes / Math.max(1, tally.requests),
})

/** The bytes of one answer as sent (status line and headers included), as node:http receives them. */
function answerBytes(url: string, headers: Record<string, string>): Promise<{ status: number, body: number, total: number, etag?: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let body = 0
      response.on('data', (chunk: Buffer) => {
        body += chunk.length
      })
      response.on('end', () => {
        const head = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n${response.rawHeaders.map((v, i) => (i % 2 ? `${v}\r\n` : `${v}: `)).join('')}\r\n`
        resolve({ status: response.statusCode!, body, total: body + Buffer.byteLength(head), etag: response.headers.etag })
      })
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

async function main() {
  const profile = flags['server-cpu-prof']
  const entry = flags.entry ?? SERVER_ENTRY
  const server = await startServer(profile ? { NODE_OPTIONS: `--require ${join(import.meta.dirname, 'support/cpu-profile.cjs')}`, BENCH_CPU_PROFILE_DIR: profile } : {}, undefined, entry)
  const basePort = await freePort()
  const baseline = { stop: async () => {} }
  try {
    const seedStarted = performance.now()
    const { deepCursor, plans } = await seed(server.dbPath, ROWS)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    const child = await startChild(join(import.meta.dirname, 'support/gallery-baseline.ts'), [server.dbPath, String(basePort)], /^listening/)
    baseline.stop = child.stop
    const base = `http://127.0.0.1:${basePort}`
    const cookie = await login(server.url)

    const only = new Set(flags.only.split(','))
    // The first page's tag, as a browser holding it sends it back (a build without tags answers 200).
    const etag = (await answerBytes(`${server.url}/api/gallery`, {})).etag
    const all: { key: string, name: string, path: string, headers: Record<string, string> }[] = [
      { key: 'first', name: 'GET /api/gallery (first page)', path: '/api/gallery', headers: {} },
      { key: 'deep', name: `GET /api/gallery?cursor=… (${DEEP.toLocaleString('en')} items in)`, path: `/api/gallery?cursor=${deepCursor}`, headers: {} },
      { key: 'q', name: `GET /api/admin/uploads?q=${Q}`, path: `/api/admin/uploads?q=${encodeURIComponent(Q)}`, headers: { cookie } },
      { key: 'first304', name: 'GET /api/gallery (first page, If-None-Match: 304)', path: '/api/gallery', headers: etag ? { 'if-none-match': etag } : {} },
    ]
    const targets = all.filter(target => only.has(target.key))
    // Both answer the same thing before either is timed.
    const totals: number[] = []
    for (const target of targets) {
      if (target.key === 'first304') continue
      const [ours, bare] = await Promise.all([api(server.url, target.path, { headers: target.headers }), api(base, target.path)])
      const ids = (body: any) => JSON.stringify(body.items.map((item: any) => item.id))
      if (ours.status !== 200 || bare.status !== 200 || ids(ours.body) !== ids(bare.body) || ours.body.total !== bare.body.total || ours.body.items.length === 0) {
        throw new Error(`${target.name}: service and baseline disagree: ${ours.status} ${bare.status}\n${JSON.stringify(ours.body).slice(0, 400)}\n${JSON.stringify(bare.body).slice(0, 400)}`)
      }
      if (ours.body.total !== undefined) totals.push(ours.body.total)
    }

    // The machine is shared and noisy: every target gets its time in ROUNDS slices, taken in turn
    // (service, bare, next target…), so a burst of someone else's load falls on all of them alike.
    const slice = DURATION / ROUNDS
    const tallies = targets.map(() => ({ service: newTally(), bare: newTally() }))
    for (const target of targets) {
      await run(`${server.url}${target.path}`, target.headers, WARMUP)
      await run(`${base}${target.path}`, {}, WARMUP)
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, target] of targets.entries()) {
        await run(`${server.url}${target.path}`, target.headers, slice, tallies[index]!.service)
        await run(`${base}${target.path}`, {}, slice, tallies[index]!.bare)
      }
    }
    const results = targets.map((target, index) => ({ name: target.name, service: summary(tallies[index]!.service), bare: summary(tallies[index]!.bare) }))
    for (const { name, service, bare } of results) {
      console.log(`${name}: service ${service.rps.toFixed(0)} req/s p99 ${service.p99.toFixed(1)} ms; bare ${bare.rps.toFixed(0)} req/s p99 ${bare.p99.toFixed(1)} ms; ratio ${(service.rps / bare.rps).toFixed(2)}; ${service.bytesPerAnswer.toFixed(0)} B/answer`)
    }
    // A 100-item page as sent: identity, gzip, br (headers included; body alone in brackets).
    const pageBytes: string[][] = []
    for (const accept of ['identity', 'gzip', 'br']) {
      const sent = await answerBytes(`${server.url}/api/gallery?limit=100`, { 'accept-encoding': accept })
      pageBytes.push([accept, `${sent.total.toLocaleString('en')} B (body ${sent.body.toLocaleString('en')} B)`])
      console.log(`GET /api/gallery?limit=100, accept-encoding ${accept}: ${sent.total} B (body ${sent.body} B)`)
    }
    const bad = results.reduce((sum, r) => sum + r.service.bad + r.bare.bad, 0)
    if (bad) console.log(`WARNING: ${bad} non-2xx answers or socket errors`)
    // A profiled server is slower, and a partial run leaves out measures: neither goes into RESULTS.md.
    if (profile) console.log(`server CPU profile written to ${profile}`)
    if (profile || flags.entry || results.length < 4) return
    const byName = (key: string) => results[targets.findIndex(target => target.key === key)]!
    const first = byName('first')
    const deep = byName('deep')
    const notModified = byName('first304')

    const section = `
${ROWS.toLocaleString('en')} approved, confirmed, derived uploads (8 % videos) inserted straight into the server's SQLite file
in ${seedSeconds.toFixed(1)} s; autocannon over loopback, ${CONNECTIONS} connections, ${DURATION} s per measure after a ${WARMUP} s warm-up, taken in
${ROUNDS} slices of ${(DURATION / ROUNDS).toFixed(1)} s that alternate between all six measures (shared, noisy 2-core machine); p50/p99 over every response.
"Bare" is a plain \`node:http\` server in its own process (bench/support/gallery-baseline.ts) running the same SQL through
the same \`@libsql/client\` on the same file and writing the same JSON fields (no framework, validation, ORM or admin session
check). Ratio = service req/s ÷ bare req/s, measured in this run. The gallery reads only the 12 columns an item shows, through
two statements drizzle prepares once (first page, after a cursor); the bare server runs that same SQL.

${table(['endpoint', 'service req/s', 'service p99', 'bare req/s', 'bare p99', 'ratio service / bare', 'target'], results.filter(r => r !== notModified).map(r => [
  r.name, r.service.rps.toFixed(0), `${r.service.p99.toFixed(1)} ms`, r.bare.rps.toFixed(0), `${r.bare.p99.toFixed(1)} ms`, (r.service.rps / r.bare.rps).toFixed(2), '≥ 0.5',
]))}

${table(['deep page vs first page (service)', 'value', 'target'], [
  ['req/s deep ÷ first', (deep.service.rps / first.service.rps).toFixed(2), '≈ 1'],
  ['p99 deep ÷ first', (deep.service.p99 / first.service.p99).toFixed(2), '≈ 1'],
  ['non-2xx answers or socket errors, all runs', bad, '0'],
])}

\`q=${Q}\` matches ${totals[0]?.toLocaleString('en')} of ${ROWS.toLocaleString('en')} rows. It is a \`LIKE '%…%'\` on \`search_text\`:
no index can serve it, so every request scans the table twice (the page and its \`total\`). Query plans (SQLite):

${Object.entries(plans).map(([name, plan]) => `- ${name}: \`${plan}\``).join('\n')}
`
    writeSection('Gallery and admin list (issue 4)', section)

    writeSection('Conditional, compressed answers and the gallery cache (issue 14)', `
Run: \`npx tsx bench/gallery.ts --connections ${CONNECTIONS} --rows ${ROWS}\` (same seeding and alternating slices as
issue 4's section, which a run rewrites as well). The service keeps the encoded first pages per change counter; "bare" runs the
same SQL as the uncached service did on every request. Bytes per answer include the status line and headers
(autocannon sends no accept-encoding, so answers are identity).

${table(['measure', 'service', 'bare', 'ratio', 'target'], [
  ['GET /api/gallery (first page) req/s', first.service.rps.toFixed(0), first.bare.rps.toFixed(0), (first.service.rps / first.bare.rps).toFixed(2), '≥ 1.2'],
  ['GET /api/gallery (first page) p99', `${first.service.p99.toFixed(1)} ms`, `${first.bare.p99.toFixed(1)} ms`, (first.service.p99 / first.bare.p99).toFixed(2), '≤ 1'],
  ['same with If-None-Match (all 304) req/s', notModified.service.rps.toFixed(0), notModified.bare.rps.toFixed(0), (notModified.service.rps / notModified.bare.rps).toFixed(2), ''],
  ['same with If-None-Match: p99', `${notModified.service.p99.toFixed(1)} ms`, `${notModified.bare.p99.toFixed(1)} ms`, '', ''],
  ['bytes per answer, first page (200)', first.service.bytesPerAnswer.toFixed(0), first.bare.bytesPerAnswer.toFixed(0), '', ''],
  ['bytes per answer, If-None-Match (304)', notModified.service.bytesPerAnswer.toFixed(0), '', '', ''],
])}

${table(['a 100-item gallery page, accept-encoding', 'bytes sent'], pageBytes)}
`)
  }
  finally {
    await baseline.stop()
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

await main()
