// CI: the serverless presets build; a serverless build started with local storage refuses to run
// with a clear message (its disk would vanish between invocations); and the built function reaches
// a remote libSQL database over HTTP with its token.
//
// No libSQL server (sqld, Turso) runs on these machines, so the remote database is a stand-in, said
// here as the house rules ask: it answers the one statement /api/health sends (SELECT 1) in the
// Hrana v2 protocol that @libsql/client speaks, and refuses anything else. What it proves is the
// bundle's side: the client is traced into the function, speaks HTTP to DATABASE_URL with
// DATABASE_AUTH_TOKEN, and reads the answer.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'

const presets = {
  vercel: '.vercel/output/functions/__fallback.func/index.mjs',
  netlify: '.netlify/functions-internal/server/main.mjs',
}
const env = {
  PATH: process.env.PATH,
  ADMIN_PASSWORD: 'x',
  SESSION_SECRET: 'x'.repeat(40),
  ALLOWED_ADMIN_EMAILS: 'admin@example.com',
  PUBLIC_BASE_URL: 'https://fotos.example.com',
}
const TOKEN = 'remote-token-canary'

/** The stand-in remote database: records every request, answers SELECT 1 only. */
async function startRemoteStandIn() {
  const requests = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body })
      let pipeline
      try {
        pipeline = JSON.parse(body)
      }
      catch {
        pipeline = null
      }
      const [first, second] = pipeline?.requests ?? []
      if (req.method === 'POST' && req.url === '/v2/pipeline' && first?.stmt?.sql === 'SELECT 1' && second?.type === 'close') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({
          baton: null,
          base_url: null,
          results: [
            { type: 'ok', response: { type: 'execute', result: { cols: [{ name: '1', decltype: null }], rows: [[{ type: 'integer', value: '1' }]], affected_row_count: 0, last_insert_rowid: null } } },
            { type: 'ok', response: { type: 'close' } },
          ],
        }))
        return
      }
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('stand-in: only SELECT 1')
    })
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => server.close() }
}

/** GET /api/health through the built function, as the platform would call it. */
async function healthThroughFunction(preset, entry, extraEnv) {
  const script = `
    const fn = (await import(${JSON.stringify(`./${entry}`)})).default
    let response
    if (${JSON.stringify(preset)} === 'vercel') {
      // Vercel's Node runtime calls the function as a node:http listener.
      const server = (await import('node:http')).createServer(fn)
      await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
      response = await fetch('http://127.0.0.1:' + server.address().port + '/api/health')
      server.close()
    }
    else {
      // Netlify's functions take a web Request and answer a Response.
      response = await fn(new Request('https://fotos.example.com/api/health'), {})
    }
    console.log('HEALTH ' + JSON.stringify({ status: response.status, body: await response.json() }))
    process.exit(0)`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...env, ...extraEnv } })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  await new Promise(resolve => child.on('exit', resolve))
  clearTimeout(timer)
  const line = output.split('\n').find(text => text.startsWith('HEALTH '))
  return { health: line ? JSON.parse(line.slice('HEALTH '.length)) : null, output }
}

let failed = false
const fail = (message) => {
  console.error(`✗ ${message}`)
  failed = true
}
for (const [preset, entry] of Object.entries(presets)) {
  const build = spawnSync('npx', ['nuxt', 'build'], { env: { ...process.env, NITRO_PRESET: preset }, encoding: 'utf8' })
  if (build.status !== 0 || !existsSync(entry)) {
    fail(`${preset}: build failed\n${build.stdout}\n${build.stderr}`)
    continue
  }
  const run = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(`./${entry}`)})`], { env, encoding: 'utf8', timeout: 20_000 })
  const output = `${run.stdout}${run.stderr}`
  if (run.status === 1 && output.includes(`S3_BUCKET is missing: the ${preset} preset`) && output.includes('DATABASE_URL is invalid')) {
    console.log(`✓ ${preset}: builds; refuses local storage and a database file at start`)
  }
  else {
    fail(`${preset}: expected a refusal, got exit ${run.status}:\n${output}`)
  }

  const remote = await startRemoteStandIn()
  try {
    // Storage points at a closed port: only the database's answer is under test here.
    const { health, output: functionOutput } = await healthThroughFunction(preset, entry, {
      DATABASE_URL: remote.url, DATABASE_AUTH_TOKEN: TOKEN,
      S3_BUCKET: 'event-media', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret',
    })
    const asked = remote.requests.find(request => request.url === '/v2/pipeline')
    if (health?.status === 503 && health.body.database === 'ok' && health.body.storage === 'unavailable'
      && asked?.authorization === `Bearer ${TOKEN}` && remote.requests.every(request => request.authorization === `Bearer ${TOKEN}`)) {
      console.log(`✓ ${preset}: the function asks the remote libSQL database over HTTP with its token and reads the answer`)
    }
    else {
      fail(`${preset}: remote database round trip: health ${JSON.stringify(health)}, requests ${JSON.stringify(remote.requests)}\n${functionOutput.slice(-2000)}`)
    }
  }
  finally {
    remote.close()
  }
}
process.exit(failed ? 1 : 0)
