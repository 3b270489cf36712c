// Gallery and admin list under load, one script for three sections of RESULTS.md. Approved, confirmed
// uploads are seeded straight into the server's database (10,000 by default), then autocannon over
// loopback measures each target against a bare node:http server answering the same SQL through the
// same @libsql/client on the same file in the same run, with the server's CPU time per request.
// Targets (`--only`, keys in brackets): the first gallery page [first], a page ~90 % deep [deep],
// the first page asked with If-None-Match, all 304 [first304], the admin list searched with `q` [q],
// the same list without q [list], the searched list as the dashboard asks for it, 24 items [q24],
// and the searched list never answered from memory [qcold]: each request spells q in other capitals,
// so each is a list of its own, to be made again (the same search, the same rows, the same cost).
// One size (`--rows 10000`, `npm run bench`) writes the gallery and admin list's section and the
// conditional answers' one, with the bytes of a 100-item page; several (`--rows 10000,100000
// --connections 50 --only first,list,q,qcold`) each get a server and database of their own, are
// measured in alternating slices and write the admin search's section. `--entry` measures another
// build's server (main's, for "before" numbers; console only), `--server-cpu-prof DIR` writes the
// server's CPU profile. Every run prints the query plans.
// Run: npm run bench (or npx tsx --tsconfig .nuxt/tsconfig.server.json bench/gallery.ts [flags]).
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { createClient, type Client, type InStatement } from '@libsql/client'
import { isNotNull } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from '../db/schema'
import { findAdminUploads } from '../server/utils/admin/search'
import { encodeUploadCursor } from '../shared/cursor'
import { searchTextOf } from '../shared/search'
import { api, login } from '../tests/support/http'
import { freePort } from '../tests/support/ports'
import { SERVER_ENTRY, startServer, type TestServer } from '../tests/support/server'
import { cpuMs, percentile, startChild, table, writeSection, type Child } from './lib'

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
    /** Measures only the targets whose key is listed (first, deep, first304, q, list, q24, qcold), e.g. to profile one of them. */
    'only': { type: 'string', default: 'first,deep,q,first304' },
    /** Another build's server entry (e.g. ../main/.output/server/index.mjs, from the current directory): its numbers go to the console only. */
    'entry': { type: 'string' },
  },
})
const SIZES = flags.rows.split(',').map(Number)
const DURATION = Number(flags.duration)
const WARMUP = Number(flags.warmup)
const CONNECTIONS = Number(flags.connections)
const ROUNDS = Math.max(1, Number(flags.rounds))
const Q = flags.q

const AUTHORS = ['João', 'Maria José', 'Ana Lúcia', 'Bruno', 'Inês', 'Zoë', 'François', 'Müller', 'Sofía', 'Álvaro',
  'Chloé', 'Noémie', 'Łukasz', 'Tia Conceição', 'Vovó Zezé', 'Renée', 'Pedro', 'Joana', 'Íris', '']
const MESSAGES = ['Parabéns aos noivos!', 'Felicidades, que sejam muito felizes ❤️', 'Que festa linda!', '',
  'Muchas felicidades a los dos', 'Félicitations aux mariés !', 'A dança foi incrível', 'Saúde! 🥂', '',
  'Vocês merecem tudo de bom', 'Olha a tia Conceição na pista', 'Que alegria estar aqui com vocês', '',
  'Beijos da família de São Paulo', 'Um brinde ao amor', 'Smile! 📸']

/** The evening in MOMENTS chapters of equal length, as a couple's moments with windows would place them. */
const MOMENTS = 4
/** The moment measured: the second chapter, a quarter of the uploads. */
const MEASURED_MOMENT = 'moment-1'
const momentOfTime = (offset: number, span: number) => `moment-${Math.min(MOMENTS - 1, Math.floor((offset / span) * MOMENTS))}`

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

/**
 * Inserts `count` approved, confirmed, already-derived uploads spread over a six-hour evening, in
 * one transaction of 500-row INSERTs: the text index's triggers make each statement costly to
 * prepare, so one per row would take most of the time (they still index every row).
 */
async function seed(dbPath: string, count: number, deep: number) {
  const client = createClient({ url: `file:${dbPath}`, timeout: 5000 })
  const next = random(42)
  const start = Date.parse('2026-12-12T18:00:00.000Z')
  const span = 6 * 3600_000
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!
  const columns = ['id', 'status', 'kind', 'author', 'message', 'search_text', 'file_name', 'content_type', 'size', 'width', 'height',
    'duration_sec', 'storage_key', 'thumb_key', 'display_key', 'poster_key', 'derived_at', 'created_at', 'confirmed_at', 'updated_at', 'moment_id']
  const rowsPerInsert = 500
  const values = `(${columns.map(() => '?').join(', ')})`
  const transaction = await client.transaction('write')
  // Random ids and times land all over the indexes: a page cache that holds them (the default
  // is 2 MB) takes a third off seeding 100,000 rows.
  await transaction.execute('PRAGMA cache_size = -262144')
  for (let done = 0; done < count; done += rowsPerInsert) {
    const args: (string | number | null)[] = []
    const rows = Math.min(count, done + rowsPerInsert) - done
    for (let i = done; i < done + rows; i++) {
      const id = randomBytes(15).toString('base64url')
      const video = next() < 0.08
      const author = pick(AUTHORS)
      const message = pick(MESSAGES)
      const createdAt = start + Math.floor(next() * span)
      const confirmedAt = createdAt + 2000 + Math.floor(next() * 20_000)
      const token = randomBytes(12).toString('base64url')
      const storageKey = video ? `media/${id}-${token}.mp4` : `orig/${id}-${token}.jpg`
      const derived = (variant: string, extension: string) => `media/${id}-${randomBytes(12).toString('base64url')}-${variant}.${extension}`
      args.push(id, 'approved', video ? 'video' : 'photo', author, message, searchTextOf(author, message),
        video ? `VID_${i}.MP4` : `IMG_${i}.JPG`, video ? 'video/mp4' : 'image/jpeg',
        video ? 20_000_000 + i : 2_000_000 + i, video ? 1920 : 4032, video ? 1080 : 3024, video ? 12.5 : null,
        storageKey, video ? null : derived('thumb', 'webp'), video ? null : derived('display', 'jpg'),
        video ? derived('poster', 'jpg') : null, confirmedAt + 1500, createdAt, confirmedAt, confirmedAt, momentOfTime(createdAt - start, span))
    }
    await transaction.execute({ sql: `insert into uploads (${columns.join(', ')}) values ${Array(rows).fill(values).join(', ')}`, args })
  }
  await transaction.commit()
  const deepRow = await client.execute({
    sql: `select created_at, id from uploads where status = 'approved' and confirmed_at is not null order by created_at desc, id desc limit 1 offset ?`,
    args: [deep - 1],
  })
  const row = deepRow.rows[0]!
  const plans: Record<string, string> = {}
  const explain = async (name: string, statement: string, args: (string | number)[]) => {
    const { rows } = await client.execute({ sql: `explain query plan ${statement}`, args })
    plans[name] = rows.map(r => String(r.detail)).join('; ')
  }
  await explain('gallery, deep page', `select id from uploads where (status = ? and confirmed_at IS NOT NULL AND (kind = 'video' OR display_key IS NOT NULL) and (created_at, id) < (?, ?)) order by created_at desc, id desc limit 25`, ['approved', Number(row.created_at), String(row.id)])
  // The same depth (90 %) inside the measured moment.
  const inMoment = await client.execute({ sql: `select count(*) as n from uploads where moment_id = ? and status = 'approved' and confirmed_at is not null`, args: [MEASURED_MOMENT] })
  const momentItems = Number(inMoment.rows[0]!.n)
  const momentRow = (await client.execute({
    sql: `select created_at, id from uploads where moment_id = ? and status = 'approved' and confirmed_at is not null order by created_at desc, id desc limit 1 offset ?`,
    args: [MEASURED_MOMENT, Math.floor(momentItems * 0.9) - 1],
  })).rows[0]!
  const displayable = `status = ? and confirmed_at IS NOT NULL AND (kind = 'video' OR display_key IS NOT NULL)`
  await explain('gallery by moment, first page', `select id from uploads where (${displayable} and moment_id = ?) order by created_at desc, id desc limit 25`, ['approved', MEASURED_MOMENT])
  await explain('gallery by moment, deep page', `select id from uploads where (${displayable} and moment_id = ? and (created_at, id) < (?, ?)) order by created_at desc, id desc limit 25`, ['approved', MEASURED_MOMENT, Number(momentRow.created_at), String(momentRow.id)])
  for (const [index, plan] of (await adminListPlans(client, Q)).entries()) plans[`admin list, q: statement ${index + 1}`] = plan
  for (const [index, plan] of (await adminListPlans(client, undefined)).entries()) plans[`admin list, no q: statement ${index + 1}`] = plan
  client.close()
  return {
    deepCursor: encodeUploadCursor({ createdAt: new Date(Number(row.created_at)), id: String(row.id) }),
    momentItems,
    momentDeepCursor: encodeUploadCursor({ createdAt: new Date(Number(momentRow.created_at)), id: String(momentRow.id) }),
    plans,
  }
}

/**
 * The query plans of the admin list (status all, first page), searched with `q` or not: the
 * statements the service's own code (findAdminUploads) sends, caught on their way to the client, explained.
 */
async function adminListPlans(client: Client, q: string | undefined): Promise<string[]> {
  const sent: InStatement[] = []
  const spy = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return (statement: InStatement) => {
          sent.push(statement)
          return target.execute(statement)
        }
      }
      if (property === 'batch') {
        return (statements: InStatement[], mode?: 'read') => {
          sent.push(...statements)
          return target.batch(statements, mode)
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  await findAdminUploads(drizzle(spy, { schema }), { filter: isNotNull(schema.uploads.confirmedAt), narrowed: false, q, cursor: undefined, fetch: 51 })
  const plans: string[] = []
  for (const statement of sent) {
    const { sql, args } = typeof statement === 'string' ? { sql: statement, args: [] } : statement
    const { rows } = await client.execute({ sql: `explain query plan ${sql}`, args })
    plans.push(rows.map(r => String(r.detail)).join('; '))
  }
  return plans
}

interface Measured {
  rps: number
  p50: number
  p99: number
  bad: number
  /** server CPU per request, ms */
  cpu: number
  bytesPerAnswer: number
}

interface Tally { requests: number, seconds: number, latencies: number[], bad: number, cpuMs: number, bytes: number }

interface Target {
  key: string
  name: string
  path: string
  headers: Record<string, string>
  /** Each request spells `q` in other capitals (qcold): the same search, a list of its own. */
  respell?: boolean
}

/**
 * Q in the `n`-th of its 2^length spellings in capitals: the service folds case, so each finds the
 * same uploads, but the validated query (and the list kept for it) differs.
 */
function spelling(n: number): string {
  return [...Q].map((char, index) => ((n >> index) & 1 ? char.toUpperCase() : char)).join('')
}

/** One autocannon run; every response time is kept, so percentiles over several runs are exact. */
async function run(base: string, target: Target, seconds: number, tally?: Tally, pid?: number) {
  const cpuBefore = pid ? cpuMs(pid) : 0
  let sent = 0
  // A cycle of 2^11 spellings is far longer than the lists the service keeps: every one is made.
  const requests = target.respell
    ? [{ setupRequest: (req: any) => ({ ...req, path: target.path.replace(encodeURIComponent(Q), encodeURIComponent(spelling(sent++))) }) }]
    : undefined
  // Without a callback autocannon returns its tracker, an event emitter that is also a promise.
  const instance = autocannon({ url: `${base}${target.path}`, connections: CONNECTIONS, duration: seconds, headers: target.headers, requests }) as unknown as autocannon.Instance & Promise<autocannon.Result>
  if (tally) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => tally.latencies.push(ms))
  const result = await instance
  if (tally) {
    if (pid) tally.cpuMs += cpuMs(pid) - cpuBefore
    tally.requests += result.requests.total
    tally.seconds += result.duration
    // A 304 is the answer asked for, not a failure.
    tally.bad += result.non2xx - (result['3xx'] ?? 0) + result.errors
    tally.bytes += result.throughput.total
  }
}

const newTally = (): Tally => ({ requests: 0, seconds: 0, latencies: [], bad: 0, cpuMs: 0, bytes: 0 })

const summary = (tally: Tally): Measured => ({
  rps: tally.requests / tally.seconds,
  p50: percentile(tally.latencies, 50),
  p99: percentile(tally.latencies, 99),
  bad: tally.bad,
  cpu: tally.cpuMs / tally.requests,
  bytesPerAnswer: tally.bytes / Math.max(1, tally.requests),
})

interface SizeResult {
  rows: number
  seedSeconds: number
  /** CPU time of the seeding (it runs in this process): what it costs whatever the machine's load. */
  seedCpuSeconds: number
  results: { key: string, name: string, service: Measured, bare: Measured }[]
  bad: number
  /** `total` and `totalIsLowerBound` of the searched list, as the service answered. */
  searched?: { total: number, lowerBound: boolean }
  plans: Record<string, string>
  /** A 100-item gallery page as sent in each encoding (measured with first304). */
  pageBytes?: string[][]
}

/** One size, ready to be measured: its own server and database, seeded, and its bare server. */
interface Prepared {
  rows: number
  server: TestServer
  child: Child
  base: string
  targets: Target[]
  seedSeconds: number
  seedCpuSeconds: number
  searched?: SizeResult['searched']
  plans: Record<string, string>
  pageBytes?: string[][]
}

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

/** A 100-item gallery page as sent: identity, gzip, br (headers included; body alone in brackets). */
async function pageBytes(url: string): Promise<string[][]> {
  const sizes: string[][] = []
  for (const accept of ['identity', 'gzip', 'br']) {
    const sent = await answerBytes(`${url}/api/gallery?limit=100`, { 'accept-encoding': accept })
    sizes.push([accept, `${sent.total.toLocaleString('en')} B (body ${sent.body.toLocaleString('en')} B)`])
    console.log(`GET /api/gallery?limit=100, accept-encoding ${accept}: ${sent.total} B (body ${sent.body} B)`)
  }
  return sizes
}

/** A fresh server with `rows` uploads and its bare server, both checked to answer alike. */
async function prepare(rows: number, stops: (() => Promise<unknown>)[]): Promise<Prepared> {
  const deep = Math.floor(rows * 0.9)
  const profile = flags['server-cpu-prof']
  const server = await startServer(profile ? { NODE_OPTIONS: `--require ${join(import.meta.dirname, 'support/cpu-profile.cjs')}`, BENCH_CPU_PROFILE_DIR: profile } : {}, undefined, flags.entry ?? SERVER_ENTRY)
  stops.push(async () => {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  })
  const basePort = await freePort()
  const seedStarted = performance.now()
  const seedCpuStarted = process.cpuUsage()
  const { deepCursor, momentItems, momentDeepCursor, plans } = await seed(server.dbPath, rows, deep)
  const seedSeconds = (performance.now() - seedStarted) / 1000
  const seedCpu = process.cpuUsage(seedCpuStarted)
  const seedCpuSeconds = (seedCpu.user + seedCpu.system) / 1e6
  const child = await startChild(join(import.meta.dirname, 'support/gallery-baseline.ts'), [server.dbPath, String(basePort)], /^listening/)
  stops.push(child.stop)
  const base = `http://127.0.0.1:${basePort}`
  const cookie = await login(server.url)

  const only = new Set(flags.only.split(','))
  // The first page's tag, as a browser holding it sends it back (a build without tags answers 200).
  const etag = only.has('first304') ? (await answerBytes(`${server.url}/api/gallery`, {})).etag : undefined
  const all: Target[] = [
    { key: 'first', name: 'GET /api/gallery (first page)', path: '/api/gallery', headers: {} },
    { key: 'deep', name: `GET /api/gallery?cursor=… (${deep.toLocaleString('en')} items in)`, path: `/api/gallery?cursor=${deepCursor}`, headers: {} },
    { key: 'moment', name: `GET /api/gallery?moment=… (first page; the moment holds ${momentItems.toLocaleString('en')} items)`, path: `/api/gallery?moment=${MEASURED_MOMENT}`, headers: {} },
    { key: 'momentdeep', name: `GET /api/gallery?moment=…&cursor=… (${Math.floor(momentItems * 0.9).toLocaleString('en')} items into the moment)`, path: `/api/gallery?moment=${MEASURED_MOMENT}&cursor=${momentDeepCursor}`, headers: {} },
    { key: 'first304', name: 'GET /api/gallery (first page, If-None-Match: 304)', path: '/api/gallery', headers: etag ? { 'if-none-match': etag } : {} },
    { key: 'q', name: `GET /api/admin/uploads?q=${Q}`, path: `/api/admin/uploads?q=${encodeURIComponent(Q)}`, headers: { cookie } },
    // Not measured by default: the same list without q (what the search adds to it), the
    // searched list as the dashboard asks for it, a page of 24 as the gallery's, and the searched
    // list made anew for every request (what a search costs when no admin asked for it just before).
    { key: 'list', name: 'GET /api/admin/uploads', path: '/api/admin/uploads', headers: { cookie } },
    { key: 'q24', name: `GET /api/admin/uploads?q=${Q}&limit=24`, path: `/api/admin/uploads?q=${encodeURIComponent(Q)}&limit=24`, headers: { cookie } },
    { key: 'qcold', name: `GET /api/admin/uploads?q=${Q} (spelled anew each time: never from memory)`, path: `/api/admin/uploads?q=${encodeURIComponent(Q)}`, headers: { cookie }, respell: true },
  ]
  const targets = all.filter(target => only.has(target.key))
  // Both answer the same thing before either is timed.
  let searched: SizeResult['searched']
  for (const target of targets) {
    if (target.key === 'first304') continue
    const path = target.respell ? target.path.replace(encodeURIComponent(Q), encodeURIComponent(spelling(5))) : target.path
    const [ours, bare] = await Promise.all([api(server.url, path, { headers: target.headers }), api(base, path)])
    const ids = (body: any) => JSON.stringify(body.items.map((item: any) => item.id))
    if (ours.status !== 200 || bare.status !== 200 || ids(ours.body) !== ids(bare.body) || ours.body.total !== bare.body.total
      || ours.body.totalIsLowerBound !== bare.body.totalIsLowerBound || ours.body.items.length === 0) {
      throw new Error(`${target.name}: service and baseline disagree: ${ours.status} ${bare.status}\n${JSON.stringify(ours.body).slice(0, 400)}\n${JSON.stringify(bare.body).slice(0, 400)}`)
    }
    if (target.key === 'q') searched = { total: ours.body.total, lowerBound: ours.body.totalIsLowerBound }
  }
  for (const [name, plan] of Object.entries(plans)) console.log(`[${rows.toLocaleString('en')} rows] plan, ${name}: ${plan}`)
  const bytes = only.has('first304') ? await pageBytes(server.url) : undefined
  return { rows, server, child, base, targets, seedSeconds, seedCpuSeconds, searched, plans, pageBytes: bytes }
}

/**
 * Every target of every size against its bare server. The machine is shared and noisy: each gets
 * its time in ROUNDS slices, taken in turn (service, bare, next target, next size…), so a burst of
 * someone else's load falls on all of them alike, sizes included.
 */
async function measure(sizes: Prepared[]): Promise<SizeResult[]> {
  const slice = DURATION / ROUNDS
  const tallies = sizes.map(size => size.targets.map(() => ({ service: newTally(), bare: newTally() })))
  for (const size of sizes) {
    for (const target of size.targets) {
      await run(size.server.url, target, WARMUP)
      await run(size.base, { ...target, headers: {} }, WARMUP)
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [which, size] of sizes.entries()) {
      for (const [index, target] of size.targets.entries()) {
        await run(size.server.url, target, slice, tallies[which]![index]!.service, size.server.proc.pid)
        await run(size.base, { ...target, headers: {} }, slice, tallies[which]![index]!.bare, size.child.proc.pid)
      }
    }
  }
  return sizes.map((size, which) => {
    const results = size.targets.map((target, index) => ({
      key: target.key, name: target.name, service: summary(tallies[which]![index]!.service), bare: summary(tallies[which]![index]!.bare),
    }))
    const prefix = sizes.length > 1 ? `[${size.rows.toLocaleString('en')} rows] ` : ''
    for (const { name, service, bare } of results) {
      console.log(`${prefix}${name}: service ${service.rps.toFixed(0)} req/s p99 ${service.p99.toFixed(1)} ms ${service.cpu.toFixed(2)} ms CPU/req ${service.bytesPerAnswer.toFixed(0)} B/answer; bare ${bare.rps.toFixed(0)} req/s p99 ${bare.p99.toFixed(1)} ms; ratio ${(service.rps / bare.rps).toFixed(2)}`)
    }
    const bad = results.reduce((sum, r) => sum + r.service.bad + r.bare.bad, 0)
    if (bad) console.log(`${prefix}WARNING: ${bad} non-2xx answers or socket errors`)
    const { rows, seedSeconds, seedCpuSeconds, searched, plans, pageBytes } = size
    return { rows, seedSeconds, seedCpuSeconds, results, bad, searched, plans, pageBytes }
  })
}

const method = (seedSeconds: string) => `autocannon over loopback, ${CONNECTIONS} connections, ${DURATION} s per measure after a ${WARMUP} s warm-up, taken in
${ROUNDS} slices of ${(DURATION / ROUNDS).toFixed(1)} s that alternate between all measures (shared, noisy 2-core machine); p50/p99 over every response.
Uploads inserted straight into the server's SQLite file (${seedSeconds}).
"Bare" is a plain \`node:http\` server in its own process (bench/support/gallery-baseline.ts) running the same SQL through
the same \`@libsql/client\` on the same file and writing the same JSON fields (no framework, validation, ORM or admin session
check). Ratio = service req/s ÷ bare req/s, measured in this run.`

/** One target's measure at a size. */
const find = (size: SizeResult, key: string) => size.results.find(r => r.key === key)

/** The single-size section: gallery first page, deep page and searched list. */
function writeGallerySection(size: SizeResult) {
  const { rows, seedSeconds, bad, searched, plans } = size
  const results = ['first', 'deep', 'q'].map(key => find(size, key)!)
  const [first, deep] = results as [SizeResult['results'][0], SizeResult['results'][0]]
  const section = `
${rows.toLocaleString('en')} approved, confirmed, derived uploads (8 % videos). ${method(`${seedSeconds.toFixed(1)} s`)} The gallery reads only the 12 columns an item shows, through
two statements drizzle prepares once (first page, after a cursor); the bare server runs that same SQL.

${table(['endpoint', 'service req/s', 'service p99', 'bare req/s', 'bare p99', 'ratio service / bare', 'target'], results.map(r => [
  r.name, r.service.rps.toFixed(0), `${r.service.p99.toFixed(1)} ms`, r.bare.rps.toFixed(0), `${r.bare.p99.toFixed(1)} ms`, (r.service.rps / r.bare.rps).toFixed(2), '≥ 0.5',
]))}

${table(['deep page vs first page (service)', 'value', 'target'], [
  ['req/s deep ÷ first', (deep.service.rps / first.service.rps).toFixed(2), '≈ 1'],
  ['p99 deep ÷ first', (deep.service.p99 / first.service.p99).toFixed(2), '≈ 1'],
  ['non-2xx answers or socket errors, all runs', bad, '0'],
])}

\`q=${Q}\`: total ${searched?.total.toLocaleString('en')}${searched?.lowerBound ? ' (a lower bound: counting stops there)' : ''} of ${rows.toLocaleString('en')} rows. Query plans (SQLite):

${Object.entries(plans).map(([name, plan]) => `- ${name}: \`${plan}\``).join('\n')}
`
  writeSection('Gallery and admin list', section)
}

/** The gallery narrowed to one moment beside the whole gallery, first and deep pages. */
function writeMomentSection(size: SizeResult) {
  const results = ['first', 'deep', 'moment', 'momentdeep'].map(key => find(size, key)!)
  const [first, deep, moment, momentDeep] = results as [SizeResult['results'][0], SizeResult['results'][0], SizeResult['results'][0], SizeResult['results'][0]]
  writeSection(`Gallery by moment at ${size.rows.toLocaleString('en')} uploads`, `
Run: \`npx tsx --tsconfig .nuxt/tsconfig.server.json bench/gallery.ts --rows ${size.rows} --connections ${CONNECTIONS} --duration ${DURATION} --only ${flags.only}\`.
The same seed as the gallery's section, the evening cut in ${MOMENTS} moments of equal length (\`moment_id\` set on every row);
\`?moment=\` asks for one of them. The service answers a page from its answer cache until the uploads change, filtered or not;
the bare server runs the SQL on every request, so its column is the query's own cost, the same with the filter as without. ${method(`${size.seedSeconds.toFixed(1)} s`)}

${table(['endpoint', 'service req/s', 'service p50', 'service p99', 'server CPU per request', 'bare req/s', 'ratio service / bare'], results.map(r => [
  r.name, r.service.rps.toFixed(0), `${r.service.p50.toFixed(1)} ms`, `${r.service.p99.toFixed(1)} ms`, `${r.service.cpu.toFixed(2)} ms`, r.bare.rps.toFixed(0), (r.service.rps / r.bare.rps).toFixed(2),
]))}

${table(['filtered vs unfiltered (service)', 'value', 'target'], [
  ['req/s moment first page ÷ gallery first page', (moment.service.rps / first.service.rps).toFixed(2), '≈ 1'],
  ['req/s moment deep page ÷ gallery deep page', (momentDeep.service.rps / deep.service.rps).toFixed(2), '≈ 1'],
  ['CPU per request, moment first ÷ gallery first', (moment.service.cpu / first.service.cpu).toFixed(2), '≈ 1'],
  ['non-2xx answers or socket errors, all runs', size.bad, '0'],
])}

Query plans (SQLite): an index seek in both, never a scan or a sort:

${Object.entries(size.plans).filter(([name]) => name.startsWith('gallery')).map(([name, plan]) => `- ${name}: \`${plan}\``).join('\n')}
`)
}

/** The first page's 304s and the bytes of an answer, beside the cached first page. */
function writeConditionalSection(size: SizeResult) {
  const first = find(size, 'first')!
  const notModified = find(size, 'first304')!
  writeSection('Conditional, compressed answers and the gallery cache', `
Run: \`npx tsx --tsconfig .nuxt/tsconfig.server.json bench/gallery.ts --connections ${CONNECTIONS} --rows ${size.rows}\` (same seeding and alternating slices as
the gallery and admin list's section, which a run rewrites as well). The service keeps the encoded first pages per change counter; "bare" runs the
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

${table(['a 100-item gallery page, accept-encoding', 'bytes sent'], size.pageBytes ?? [])}
`)
}

/** The searched list against the first gallery page, at each size, and how its cost grows. */
function writeSearchSection(sizes: SizeResult[]) {
  const rps = (size: SizeResult, key: string) => size.results.find(r => r.key === key)!.service.rps
  const cpu = (size: SizeResult, key: string) => size.results.find(r => r.key === key)!.service.cpu
  const smallest = sizes[0]!
  const rows = sizes.flatMap(size => size.results.map(r => [
    size.rows.toLocaleString('en'), r.name, r.service.rps.toFixed(0), `${r.service.p50.toFixed(1)} ms`, `${r.service.p99.toFixed(1)} ms`,
    `${r.service.cpu.toFixed(2)} ms`, r.bare.rps.toFixed(0), (r.service.rps / r.bare.rps).toFixed(2),
  ]))
  // Other admin lists measured beside the searched one, each against the gallery page too.
  const others = [['q24', `q=${Q}&limit=24 ÷ first gallery page`], ['list', 'list without q ÷ first gallery page'],
    ['qcold', 'searched list never from memory ÷ first gallery page']]
    .filter(([key]) => sizes.every(size => size.results.some(r => r.key === key)))
  const both = (reqs: number, cpus: number) => `${reqs.toFixed(2)} (CPU: ${cpus.toFixed(2)})`
  const ratios = sizes.map(size => [
    size.rows.toLocaleString('en'),
    both(rps(size, 'q') / rps(size, 'first'), cpu(size, 'first') / cpu(size, 'q')),
    '≥ 0.5',
    ...others.map(([key]) => both(rps(size, key!) / rps(size, 'first'), cpu(size, 'first') / cpu(size, key!))),
    size === smallest
      ? '1 (reference)'
      : `${(rps(smallest, 'q') / rps(size, 'q')).toFixed(2)} raw, ${((rps(smallest, 'q') / rps(smallest, 'first')) / (rps(size, 'q') / rps(size, 'first'))).toFixed(2)} against the gallery page (CPU: ${(cpu(size, 'q') / cpu(smallest, 'q')).toFixed(2)})`,
    size === smallest ? '' : '≤ 1.3',
    `${size.searched?.total.toLocaleString('en')}${size.searched?.lowerBound ? ' (lower bound)' : ''}`,
    size.bad,
  ])
  const largest = sizes[sizes.length - 1]!
  const worst = Math.min(...sizes.map(size => cpu(size, 'first') / cpu(size, 'q')))
  const growth = cpu(largest, 'q') / cpu(smallest, 'q')
  const worstRps = Math.min(...sizes.map(size => rps(size, 'q') / rps(size, 'first')))
  const cold = sizes.every(size => find(size, 'qcold'))
    ? `\nMade anew for every request (qcold, what a search costs when no admin asked for the same list since the last change): ${
      sizes.map(size => `${(cpu(size, 'first') / cpu(size, 'qcold')).toFixed(2)}× the gallery page by CPU at ${size.rows.toLocaleString('en')} uploads`).join(', ')
    }; its cost at ${largest.rows.toLocaleString('en')} ${(cpu(largest, 'qcold') / cpu(smallest, 'qcold')).toFixed(2)}× its cost at ${smallest.rows.toLocaleString('en')} by CPU.`
    : ''
  const verdicts = [
    `Targets: the searched list at ${worstRps.toFixed(2)}× the first gallery page's req/s at worst, ${worst.toFixed(2)}× by server CPU per request (target ≥ 0.5: ${Math.min(worst, worstRps) >= 0.5 ? 'met' : `missed, by a factor of ${(0.5 / Math.min(worst, worstRps)).toFixed(1)}`});`,
    `its cost at ${largest.rows.toLocaleString('en')} uploads ${growth.toFixed(2)}× its cost at ${smallest.rows.toLocaleString('en')} by CPU (target ≤ 1.3: ${growth <= 1.3 ? 'met' : 'missed'}).${cold}`,
  ].join('\n')
  const addedBySearch = `How the admin list is answered: like the gallery's first pages, each list (per query and origin) is made once per
change of the uploads or the event, or every ten minutes (its originals' URLs are signed for an hour), and answered from memory
to every admin until then (\`server/utils/admin/uploads-cache.ts\`). The gallery's and the list's cost then differ by the
session check (a verified token's claims kept until it expires, the revocation read every request) and the size of the answer (50 items of 18 fields against 24 of 10, about ${
  (find(smallest, 'q')!.service.bytesPerAnswer / 1000).toFixed(0)} kB against ${(find(smallest, 'first')!.service.bytesPerAnswer / 1000).toFixed(0)} kB).${
  cold
    ? ` "Never from memory" spells q in other capitals on every request (the same search, the same rows): each list is then made anew, as the first request after every change of the uploads does. It costs about ${
      find(smallest, 'qcold')!.service.cpu.toFixed(1)} ms of server CPU, no more at ${largest.rows.toLocaleString('en')} uploads than at ${smallest.rows.toLocaleString('en')}: the index's two statements with their rows (the page of 51 rows, 1.4 ms of CPU measured apart on the 10,000-upload file, and the count capped at 1,000, 0.6 ms) take about 40 % of it; drizzle's query building and row mapping, the originals' URL signatures and the JSON the rest.`
    : ''}

`
  const section = `
Run: \`npx tsx --tsconfig .nuxt/tsconfig.server.json bench/gallery.ts --rows ${SIZES.join(',')} --connections ${CONNECTIONS} --only ${flags.only}\`: each size on a server and
database of its own, all seeded first, then measured in alternating slices. ${method(sizes.map(size => `${size.rows.toLocaleString('en')} in ${size.seedSeconds.toFixed(1)} s, ${size.seedCpuSeconds.toFixed(1)} s of CPU`).join('; '))}

${table(['uploads', 'endpoint', 'service req/s', 'service p50', 'service p99', 'server CPU per request', 'bare req/s', 'ratio service / bare'], rows)}

Cost of the searched list = 1 ÷ its req/s. "Raw" compares the two sizes' req/s (taken in alternating slices); "against the gallery
page" divides each size's searched-list req/s by its first gallery page's (which does not depend on the size),
so that a change in the machine's load cancels out. "CPU" compares the server's CPU time per request (user +
system, from /proc, over every timed slice) instead: what the requests cost the server whatever share of the cores it was given,
so the req/s ratio a CPU-bound server would reach on an idle machine.

${table(['uploads', 'searched list ÷ first gallery page (req/s)', 'target', ...others.map(([, name]) => name!),
  'cost of the searched list ÷ its cost at the smallest size', 'target', `\`total\` of q=${Q}`, 'non-2xx or socket errors'], ratios)}

${verdicts}

${addedBySearch}Before the lists were kept (the same measures in the issue's previous session, 50 connections): the searched list at 0.20× the
first gallery page at 10,000 uploads and 0.17× at 100,000, the list without q at 0.24× and 0.12×.

Query plans of the admin list (status all, first page), searched and not: the statements \`findAdminUploads\` sends, in order, when a list is made:

${sizes.map(size => `${size.rows.toLocaleString('en')} uploads:\n\n${Object.entries(size.plans).filter(([name]) => name.startsWith('admin list')).map(([name, plan]) => `- ${name}: \`${plan}\``).join('\n')}`).join('\n\n')}

Before the index (a \`LIKE '%…%'\` on \`search_text\`; at 10,000 uploads and 50 connections it measured 121 req/s,
0.085× the first gallery page's 1,423, p99 1.57 s): page \`SCAN uploads; USE TEMP B-TREE FOR ORDER BY\`, total \`SCAN uploads\`.
`
  writeSection(`Admin search at ${sizes.map(size => size.rows.toLocaleString('en')).join(' and ')} uploads`, section)
}

async function main() {
  // Every size is seeded and served before any is measured: their slices then alternate.
  const stops: (() => Promise<unknown>)[] = []
  let sizes: SizeResult[]
  try {
    const prepared: Prepared[] = []
    for (const rows of SIZES) prepared.push(await prepare(rows, stops))
    sizes = await measure(prepared)
  }
  finally {
    for (const stop of stops.reverse()) await stop()
  }
  // A profiled server is slower, another build's numbers are for the console, and a run leaves
  // out of RESULTS.md the sections whose measures it did not take.
  if (flags['server-cpu-prof']) console.log(`server CPU profile written to ${flags['server-cpu-prof']}`)
  if (flags['server-cpu-prof'] || flags.entry) return
  const has = (...keys: string[]) => keys.every(key => sizes.every(size => find(size, key)))
  if (sizes.length === 1 && has('first', 'deep', 'q')) writeGallerySection(sizes[0]!)
  if (sizes.length === 1 && has('first', 'first304')) writeConditionalSection(sizes[0]!)
  if (sizes.length > 1 && has('first', 'q')) writeSearchSection(sizes)
  if (sizes.length === 1 && has('first', 'deep', 'moment', 'momentdeep')) writeMomentSection(sizes[0]!)
}

await main()
