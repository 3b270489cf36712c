// Rate-limit bursts: how many requests of a burst fired all at once get through each
// limit, on the memory store, on Redis, and on two instances sharing one Redis, against the
// built server. `--before <path to an older build's .output/server/index.mjs>` measures that build
// too, side by side. Run: npm run bench -- rate-limits (or npx tsx bench/rate-limits.ts [--before …]).
import { api, type JsonResponse } from '../tests/support/http'
import { startRedis, type TestRedis } from '../tests/support/redis'
import { ADMIN_EMAIL, ADMIN_PASSWORD, SERVER_ENTRY, startServer, type TestServer } from '../tests/support/server'
import { table, writeSection } from './lib'

const ROUNDS = 3
const UPLOADS_PER_MINUTE = 20

interface Scenario {
  name: string
  limit: string
  stores: ('memory' | 'redis' | 'two instances')[]
  /** The answers to one burst; `round` makes its client addresses and emails fresh. */
  run: (servers: TestServer[], round: number) => Promise<JsonResponse[]>
  passed: (response: JsonResponse) => boolean
}

const from = (address: string) => ({ 'x-forwarded-for': address })
const pick = (servers: TestServer[], i: number) => servers[i % servers.length]!.url
const burst = (count: number, send: (i: number) => Promise<JsonResponse>) => Promise.all(Array.from({ length: count }, (_, i) => send(i)))

const SCENARIOS: Scenario[] = [
  {
    name: '80 parallel upload inits from one client',
    limit: `${UPLOADS_PER_MINUTE} a minute`,
    stores: ['memory', 'redis', 'two instances'],
    run: (servers, round) => burst(80, i => api(pick(servers, i), '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10 }, headers: from(`198.51.100.${round}`) })),
    passed: response => response.status === 201,
  },
  {
    name: '60 parallel wrong passwords for one email (from varied addresses)',
    limit: '5 failures, then 1 a minute',
    stores: ['memory', 'redis', 'two instances'],
    run: (servers, round) => burst(60, i => api(pick(servers, i), '/api/admin/login', { method: 'POST', json: { email: `victim-${round}@example.com`, password: `wrong-${i}` }, headers: from(`203.0.${round}.${i + 1}`) })),
    passed: response => response.status === 401,
  },
  {
    name: '60 parallel wrong logins at 60 emails from one client',
    limit: '10 failures, then 1 every 30 s',
    stores: ['memory', 'redis'],
    run: (servers, round) => burst(60, i => api(pick(servers, i), '/api/admin/login', { method: 'POST', json: { email: `guess-${round}-${i}@example.com`, password: 'x' }, headers: from(`198.51.101.${round}`) })),
    passed: response => response.status === 401,
  },
  {
    name: '120 parallel QR cards from one client',
    limit: '60, then 1 a second',
    stores: ['memory', 'redis'],
    run: (servers, round) => burst(120, i => api(pick(servers, i), '/api/qrcode?format=svg', { headers: from(`198.51.102.${round}`) })),
    passed: response => response.status === 200,
  },
]

/** Allowed counts of each round, e.g. "20 (20, 20, 20)". */
function summary(counts: number[]): string {
  const distinct = new Set(counts)
  return distinct.size === 1 ? String(counts[0]) : `${Math.min(...counts)}–${Math.max(...counts)} (${counts.join(', ')})`
}

async function measure(entry: string): Promise<{ allowed: Map<string, string>, lockout: string }> {
  const allowed = new Map<string, string>()
  const env = { RATE_LIMIT_UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE), TRUST_PROXY: 'x-forwarded-for' }
  let redis: TestRedis | undefined
  const servers: TestServer[] = []
  try {
    redis = await startRedis()
    const setups = {
      'memory': async () => [await startServer(env, undefined, entry)],
      'redis': async () => [await startServer({ ...env, ...redis!.env }, undefined, entry)],
      'two instances': async () => [await startServer({ ...env, ...redis!.env }, undefined, entry), await startServer({ ...env, ...redis!.env }, undefined, entry)],
    }
    for (const store of ['memory', 'redis', 'two instances'] as const) {
      await redis.flush()
      const running = await setups[store]()
      servers.push(...running)
      for (const scenario of SCENARIOS.filter(s => s.stores.includes(store))) {
        const counts: number[] = []
        for (let round = 1; round <= ROUNDS; round++) counts.push((await scenario.run(running, round)).filter(scenario.passed).length)
        allowed.set(`${scenario.name}|${store}`, summary(counts))
      }
      for (const server of running) await server.stop()
    }

    // Finding 4: the admin's known device during a flood of the admin's email.
    const server = await startServer(env, undefined, entry)
    servers.push(server)
    const known = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: from('192.0.2.1') })
    const device = known.headers.getSetCookie().find(cookie => cookie.startsWith('em_device='))?.split(';')[0]
    for (let i = 0; i < 10; i++) await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: `guess-${i}` }, headers: from(`203.0.113.${i + 1}`) })
    const during = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: from('192.0.2.1'), cookie: device })
    await server.stop()
    return { allowed, lockout: String(during.status) }
  }
  finally {
    for (const server of servers) await server.stop()
    await redis?.stop()
  }
}

// What the numbers of the build that read and wrote a bucket in two steps showed (rounds are listed in order).
const BEFORE_NOTE = `On the memory store the old build let through the first burst a freshly started server saw and mostly held
the later ones: its await between read and write only yielded to other requests while code paths were cold.
On Redis every await is a round trip, so nearly every request of a burst read the same full bucket.`

const beforeIndex = process.argv.indexOf('--before')
const beforeEntry = beforeIndex >= 0 ? process.argv[beforeIndex + 1] : undefined
const before = beforeEntry ? await measure(beforeEntry) : undefined
const after = await measure(SERVER_ENTRY)

const rows = SCENARIOS.flatMap(scenario => scenario.stores.map((store) => {
  const key = `${scenario.name}|${store}`
  return [scenario.name, store, scenario.limit, ...(before ? [before.allowed.get(key)!] : []), after.allowed.get(key)!]
}))
rows.push(['right password from the admin\'s known device, after 10 wrong ones for the email from 10 addresses', 'memory', 'status; must be 200', ...(before ? [before.lockout] : []), after.lockout])

writeSection('Rate-limit bursts', `
Run: \`npx tsx bench/rate-limits.ts${before ? ' --before <previous build>' : ''}\`. Each burst is fired all at once (\`Promise.all\` of
fetches over loopback) at the built server, ${ROUNDS} rounds each from fresh client addresses (\`TRUST_PROXY\`) and emails;
"allowed" counts the answers that got past the limit (201, 401 or 200; the rest were 429 RATE_LIMITED). "Two instances":
the burst alternates between two servers sharing one Redis. QR cards refill one a second, so a burst that lasts
more than a second may fairly get one more.${before ? ' "Before": the build without atomic takes (read, then write after an await); "after": this build.' : ''}

${table(['burst', 'store', 'limit', ...(before ? ['allowed before'] : []), before ? 'allowed after' : 'allowed'], rows)}
${before ? `\n${BEFORE_NOTE}\n` : ''}`)
console.log(rows.map(row => row.join(' | ')).join('\n'))
