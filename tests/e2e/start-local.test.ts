import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../support/ports'
import { ROOT } from '../support/server'

const startLocal = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['start:local'] as string
const stops: (() => void)[] = []
afterEach(() => stops.splice(0).forEach(stop => stop()))

/**
 * Runs `npm run start:local`'s command in a fresh clone's shape (its scripts, the built server) until
 * the server listens, and answers everything it printed. The one step replaced is `nuxt build`: the
 * suite runs on the build `npm test` made, and a second build here would take minutes.
 */
async function runUntilListening(dir: string, port: number): Promise<string[]> {
  const command = startLocal.replace('nuxt build', 'true')
  const proc = spawn('sh', ['-c', command], {
    cwd: dir,
    detached: true,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  stops.push(() => {
    try {
      process.kill(-proc.pid!, 'SIGTERM')
    }
    catch { /* already gone */ }
  })
  let out = ''
  proc.stdout!.on('data', (chunk: Buffer) => (out += chunk))
  proc.stderr!.on('data', (chunk: Buffer) => (out += chunk))
  const deadline = Date.now() + 30_000
  while (!/Listening on/.test(out)) {
    if (proc.exitCode !== null) throw new Error(`start:local exited (${proc.exitCode}):\n${out}`)
    if (Date.now() > deadline) throw new Error(`start:local did not listen:\n${out}`)
    await new Promise(r => setTimeout(r, 100))
  }
  return out.trimEnd().split('\n')
}

function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'event-media-clone-'))
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true })
  symlinkSync(join(ROOT, '.output'), join(dir, '.output'))
  return dir
}

describe('npm run start:local on a fresh clone', () => {
  it('prints the login address, email and password again as the last lines before the server listens', async () => {
    const dir = freshClone()
    const port = await freePort()
    const lines = await runUntilListening(dir, port)
    const env = parseEnv(readFileSync(join(dir, '.env'), 'utf8'))
    expect(env.ADMIN_PASSWORD).toMatch(/^[\w-]{12}$/)
    const login = [
      '[setup] Admin login:',
      `  address   http://localhost:${port}/admin/login`,
      '  email     admin@example.com',
      `  password  ${env.ADMIN_PASSWORD}`,
    ]
    const listening = lines.findIndex(line => line.includes('Listening on'))
    expect(lines.slice(listening - login.length, listening)).toEqual(login)
    // The first print, when .env is written, is still at the top.
    expect(lines.slice(0, 1 + login.length)).toEqual(['[setup] Wrote .env.', ...login])
    // The address printed is the server's login page.
    const page = await fetch(`http://127.0.0.1:${port}/admin/login`)
    expect(page.status).toBe(200)
  })

  it('prints the login from the existing .env on a later run', async () => {
    const dir = freshClone()
    const port = await freePort()
    await runUntilListening(dir, port)
    stops.splice(0).forEach(stop => stop())
    await new Promise(r => setTimeout(r, 500))
    const env = parseEnv(readFileSync(join(dir, '.env'), 'utf8'))
    const lines = await runUntilListening(dir, port)
    expect(lines[0]).toBe('[setup] .env exists; keeping it.')
    const listening = lines.findIndex(line => line.includes('Listening on'))
    expect(lines.slice(listening - 2, listening)).toEqual(['  email     admin@example.com', `  password  ${env.ADMIN_PASSWORD}`])
  })
})
