// What the server's display copy costs: an iPhone-like 1080p HEVC clip (30 fps, AAC sound) of 10 s
// and of 60 s, made into its H.264 copy by the very command the server runs
// (server/utils/uploads/copy-arguments.ts), niced as the server runs it. Wall time, the encode's
// CPU time (user + system: on a shared machine, what the copy costs whatever share of the cores it
// got) and its peak memory, by GNU time. Run: npx tsx --tsconfig .nuxt/tsconfig.server.json bench/display-copy.ts
// (it needs ffmpeg and /usr/bin/time; the sources take a minute or two to make).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyArguments, ENCODE_THREADS } from '../server/utils/uploads/copy-arguments'
import { table, writeSection } from './lib'

const dir = mkdtempSync(join(tmpdir(), 'bench-display-copy-'))
const MB = 1024 * 1024

/** A 1080p HEVC QuickTime file of `seconds`, tagged hvc1 as an iPhone writes it. */
function iphoneClip(seconds: number): string {
  const path = join(dir, `iphone-${seconds}s.mov`)
  execFileSync('ffmpeg', [
    '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-c:a', 'aac', '-shortest', path,
  ])
  return path
}

interface Run { wallSec: number, cpuSec: number, peakMb: number, copyMb: number, size: string }

function transcode(source: string): Run {
  const output = `${source}.copy.mp4`
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', 'nice', '-n', '10', 'ffmpeg', ...copyArguments(source, output, { hdr: false, container: 'mp4' })], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`)
  const [wall, user, system, peakKb] = /TIME (\S+) (\S+) (\S+) (\d+)/.exec(run.stderr)!.slice(1).map(Number)
  const size = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', output], { encoding: 'utf8' }).trim()
  return { wallSec: wall!, cpuSec: user! + system!, peakMb: Math.round(peakKb! / 1024), copyMb: statSync(output).size / MB, size }
}

try {
  const rows: (string | number)[][] = []
  for (const seconds of [10, 60]) {
    const source = iphoneClip(seconds)
    const run = transcode(source)
    rows.push([
      `${seconds} s, 1920×1080 HEVC 30 fps (${(statSync(source).size / MB).toFixed(1)} MB)`, run.wallSec.toFixed(1), run.cpuSec.toFixed(1),
      (run.wallSec / seconds).toFixed(2), run.peakMb, `${run.size.replace(/,/g, ' ')}, ${run.copyMb.toFixed(1)} MB`,
    ])
    console.log(rows.at(-1)!.join(' | '))
  }
  writeSection('Display copies made by the server (ffmpeg)', `
The server's command for an HEVC video (libx264 veryfast, CRF 23, ≤ 1280 px, AAC, faststart,
\`-threads ${ENCODE_THREADS}\` on this ${availableParallelism()}-core machine, niced), on Debian's ffmpeg. The clips are
ffmpeg's moving test picture (testsrc2), which encodes faster than a phone's real footage. The issue's
bound: a 30 s 1080p clip listed within 60 s of its confirm; wall time per second of video is the ratio.

${table(['clip', 'wall s', 'CPU s (user + system)', 'wall s per video s', 'peak RSS MB', 'copy'], rows)}
`)
}
finally {
  rmSync(dir, { recursive: true, force: true })
}
