import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

export const RESULTS = join(import.meta.dirname, 'RESULTS.md')

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

/**
 * CPU time a process has used so far (user + system, Linux /proc), in ms: on a shared machine, what
 * a request costs the server does not depend on how much of a core it was given meanwhile.
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

export function table(headers: string[], rows: (string | number)[][]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map(row => `| ${row.join(' | ')} |`),
  ].join('\n')
}

/** Replaces the section `## title` of bench/RESULTS.md (or appends it), keeping the others. */
export function writeSection(title: string, body: string) {
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n\nWritten by `npm run bench`; ratios are measured in one run on the same machine.\n'
  const heading = `## ${title}`
  const sections = current.split(/\n(?=## )/)
  const section = `${heading}\n\n${body.trim()}\n`
  const index = sections.findIndex(part => part === heading || part.startsWith(`${heading}\n`))
  if (index >= 0) sections[index] = section
  else sections.push(section)
  writeFileSync(RESULTS, `${sections.join('\n').trim()}\n`)
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

export interface Child {
  proc: ChildProcess
  /** The line the child printed to say it was ready. */
  ready: string
  stop: () => Promise<void>
}

/**
 * Runs another bench script in its own process (same node, same tsx loader), so that what it
 * serves does not share a core with the load generator, and waits for a line matching `ready`.
 */
export async function startChild(script: string, args: string[], ready: RegExp, timeoutMs = 30_000): Promise<Child> {
  const proc = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready after ${timeoutMs} ms:\n${log}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      log += chunk
      const found = log.split('\n').find(text => ready.test(text))
      if (found) {
        clearTimeout(timer)
        resolve(found)
      }
    }
    proc.stdout!.on('data', onData)
    proc.stderr!.on('data', (chunk: Buffer) => {
      log += chunk
    })
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited (${code}):\n${log}`))
    })
  })
  const exited = new Promise<void>(resolve => proc.once('exit', () => resolve()))
  return {
    proc,
    ready: line,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
      await exited
    },
  }
}
