import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { getInsecure } from './https'
import { freePort } from './ports'

export const ROOT = resolve(import.meta.dirname, '../..')
export const SERVER_ENTRY = join(ROOT, '.output/server/index.mjs')

export const ADMIN_EMAIL = 'admin@example.com'
export const ADMIN_PASSWORD = 'correct horse battery staple'
export const SESSION_SECRET = 'test-secret-that-is-long-enough-0123456789'

export interface TestServer {
  url: string
  port: number
  dir: string
  dbPath: string
  mediaDir: string
  env: Record<string, string>
  proc: ChildProcess
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

export function baseEnv(dir: string, port: number): Record<string, string> {
  return {
    ADMIN_PASSWORD,
    SESSION_SECRET,
    ALLOWED_ADMIN_EMAILS: `${ADMIN_EMAIL}, second@example.com`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `file:${join(dir, 'event.db')}`,
    MEDIA_DIR: join(dir, 'media'),
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
  }
}

/**
 * Starts the real built server on a free port with its own database and media folder. `entry`:
 * another build's server (a benchmark comparing an older build with this one).
 */
export async function startServer(extraEnv: Record<string, string | undefined> = {}, reuseDir?: string, entry = SERVER_ENTRY): Promise<TestServer> {
  if (!existsSync(entry)) throw new Error('No build: run `npx nuxt build` first (npm test does).')
  const dir = reuseDir ?? mkdtempSync(join(tmpdir(), 'event-media-'))
  const port = Number(extraEnv.PORT ?? await freePort())
  const env = { ...baseEnv(dir, port), ...extraEnv } as Record<string, string>
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]
  const proc = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const append = (chunk: Buffer) => {
    log += chunk
  }
  proc.stdout!.on('data', append)
  proc.stderr!.on('data', append)
  // With NITRO_SSL_CERT/KEY the server speaks https itself (see support/https.ts).
  const url = `${env.NITRO_SSL_CERT ? 'https' : 'http'}://127.0.0.1:${port}`
  const exited = new Promise<number | null>(resolve => proc.once('exit', code => resolve(code)))
  // A busy machine (other work on both cores) has taken ~29 s to start a server: wait longer
  // than that, inside the suites' 60 s hook limit.
  const deadline = Date.now() + 50_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${log}`)
    try {
      const response = await getInsecure(`${url}/api/event`)
      if (response.status === 200) break
    }
    catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      // Nobody will stop a server that never answered: stop it here rather than leave it running.
      proc.kill('SIGKILL')
      throw new Error(`server did not start:\n${log}`)
    }
    await new Promise(r => setTimeout(r, 100))
  }
  return {
    url, port, dir, env, proc,
    dbPath: join(dir, 'event.db'),
    mediaDir: env.MEDIA_DIR!,
    output: () => log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
      return exited
    },
  }
}

/** Runs the built server to completion (for start-up failures) and returns its exit code and output. */
export function runServerUntilExit(env: Record<string, string>, timeoutMs = 15_000): Promise<{ code: number | null, output: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SERVER_ENTRY], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const append = (chunk: Buffer) => {
      output += chunk
    }
    proc.stdout.on('data', append)
    proc.stderr.on('data', append)
    const timer = setTimeout(() => {
      proc.kill('SIGKILL')
      reject(new Error(`server kept running:\n${output}`))
    }, timeoutMs)
    proc.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}
