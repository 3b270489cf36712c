import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

export const RESULTS = join(import.meta.dirname, 'RESULTS.md')

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
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
  const index = sections.findIndex(part => part.startsWith(heading))
  if (index >= 0) sections[index] = section
  else sections.push(section)
  writeFileSync(RESULTS, `${sections.join('\n').trim()}\n`)
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}
