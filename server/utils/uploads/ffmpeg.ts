import { spawn } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { setPriority } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { useConfig } from '../config'

/*
 * The ffmpeg that makes display copies (display-copy.ts). Looked up once: FFMPEG_PATH when set
 * (a path with nothing there means none, so an operator or a test can turn copies off), else
 * `ffmpeg` on the PATH.
 */

let located: string | null | undefined

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  }
  catch {
    return false
  }
}

/** The ffmpeg this server runs, or null when there is none. */
export function ffmpegPath(): string | null {
  if (located !== undefined) return located
  const configured = useConfig().FFMPEG_PATH
  if (configured) located = isExecutableFile(configured) ? configured : null
  else located = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map(dir => join(dir, 'ffmpeg')).find(isExecutableFile) ?? null
  return located
}

/** ffprobe beside the ffmpeg found (Debian installs both), or null. */
export function ffprobePath(): string | null {
  const ffmpeg = ffmpegPath()
  if (!ffmpeg) return null
  const probe = join(dirname(ffmpeg), basename(ffmpeg).replace(/ffmpeg/, 'ffprobe'))
  return probe !== ffmpeg && isExecutableFile(probe) ? probe : null
}

/** Below the server's own priority: the scheduler gives the answering process the core first. */
const NICENESS = 10

export class FfmpegFailed extends Error {}

/**
 * Runs `program` with `args`, niced, killed after `timeLimitMs` or when `signal` aborts. Answers
 * its standard output; throws FfmpegFailed with the end of its error output otherwise.
 */
export function runNiced(program: string, args: string[], timeLimitMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      if (child.pid) setPriority(child.pid, NICENESS)
    }
    catch {
      // Not allowed to lower it (a locked-down container): it runs at the server's priority.
    }
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-2000)
    })
    let stopped: string | null = null
    const stop = (why: string) => {
      stopped = why
      child.kill('SIGKILL')
    }
    const timer = setTimeout(() => stop(`time limit of ${timeLimitMs} ms`), timeLimitMs)
    const onAbort = () => stop('aborted')
    signal?.addEventListener('abort', onAbort, { once: true })
    child.on('error', (error) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      reject(new FfmpegFailed(error.message))
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (stopped) reject(new FfmpegFailed(`stopped: ${stopped}`))
      else if (code === 0) resolve(out)
      else reject(new FfmpegFailed(`exit ${code}: ${err.trim()}`))
    })
  })
}
