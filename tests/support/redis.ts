import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from './ports'

export interface TestRedis {
  url: string
  env: { REDIS_URL: string }
  /** Forgets every counter, so tests sharing one Redis start from full buckets. */
  flush: () => Promise<void>
  stop: () => Promise<void>
  /** Starts it again on the same port after `stop`. */
  start: () => Promise<void>
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as a hung Redis. */
  pause: () => void
  resume: () => void
}

/** Sends one inline command and resolves with Redis's first reply line. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let reply = ''
    socket.on('error', reject)
    socket.on('data', (chunk) => {
      reply += chunk
      if (reply.includes('\r\n')) {
        socket.end()
        resolve(reply.split('\r\n')[0]!)
      }
    })
    socket.write(`${line}\r\n`)
  })
}

interface RedisProcess {
  stop: () => Promise<void>
  signal: (signal: NodeJS.Signals) => void
}

async function spawnRedis(port: number): Promise<RedisProcess> {
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const exited = new Promise<void>(resolve => proc.once('exit', () => resolve()))
  const deadline = Date.now() + 10_000
  for (;;) {
    if (await command(port, 'PING').catch(() => '') === '+PONG') break
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error('redis-server did not start')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return {
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGCONT')
        proc.kill()
      }
      await exited
    },
    signal(signal) {
      proc.kill(signal)
    },
  }
}

/**
 * A real Redis server (Debian's redis-server, installed by .ci/run), not a mock, on a free port.
 * `stop` then `start` is a Redis outage: the same address answers again, with empty counters.
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort()
  let running: RedisProcess | undefined = await spawnRedis(port)
  const url = `redis://127.0.0.1:${port}`
  return {
    url,
    env: { REDIS_URL: url },
    async flush() {
      const reply = await command(port, 'FLUSHALL')
      if (reply !== '+OK') throw new Error(`FLUSHALL answered ${reply}`)
    },
    async stop() {
      await running?.stop()
      running = undefined
    },
    async start() {
      running ??= await spawnRedis(port)
    },
    pause() {
      running?.signal('SIGSTOP')
    },
    resume() {
      running?.signal('SIGCONT')
    },
  }
}
