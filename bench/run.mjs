// npm run bench: every benchmark in turn (each writes its own section of bench/RESULTS.md).
// They need a build: run `npx nuxt build` first (npm test does). bench/load.ts takes minutes and
// fills gigabytes: it runs on its own, `npm run bench:load`.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'

const only = process.argv.slice(2)
const SEPARATE = new Set(['lib.ts', 'load.ts'])
// Some benches call the server's own code (bench/gallery.ts explains the admin list's plans with
// it), which imports through the `#shared` alias that only Nuxt's server tsconfig declares.
const TSCONFIG = ['--tsconfig', '.nuxt/tsconfig.server.json']
const scripts = readdirSync(new URL('.', import.meta.url)).filter(name => name.endsWith('.ts') && !SEPARATE.has(name))
for (const script of scripts) {
  if (only.length && !only.some(name => script.includes(name))) continue
  console.log(`\n▶ bench/${script}`)
  const run = spawnSync('npx', ['tsx', ...TSCONFIG, `bench/${script}`], { stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
