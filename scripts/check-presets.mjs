// CI: the serverless presets build, and a serverless build started with local storage refuses to
// run with a clear message (its disk would vanish between invocations).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

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
let failed = false
for (const [preset, entry] of Object.entries(presets)) {
  const build = spawnSync('npx', ['nuxt', 'build'], { env: { ...process.env, NITRO_PRESET: preset }, encoding: 'utf8' })
  if (build.status !== 0 || !existsSync(entry)) {
    console.error(`✗ ${preset}: build failed\n${build.stdout}\n${build.stderr}`)
    failed = true
    continue
  }
  const run = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(`./${entry}`)})`], { env, encoding: 'utf8', timeout: 20_000 })
  const output = `${run.stdout}${run.stderr}`
  if (run.status === 1 && output.includes(`S3_BUCKET is missing: the ${preset} preset`) && output.includes('DATABASE_URL is invalid')) {
    console.log(`✓ ${preset}: builds; refuses local storage and a database file at start`)
  }
  else {
    console.error(`✗ ${preset}: expected a refusal, got exit ${run.status}:\n${output}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
