import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

/**
 * Videos and recordings made at test time by Debian's ffmpeg from its built-in sources: one place
 * that runs ffmpeg for the tests' media files, each test giving the codec arguments it needs.
 * (The location suites' phone-like videos, with their tags and boxes, are in location-videos.ts.)
 */

/** An ffmpeg input from one of its generated sources (`testsrc=…`, `sine=…`, `anullsrc=…`). */
export const lavfi = (source: string) => ['-f', 'lavfi', '-i', source]

/** ffmpeg's test picture for `seconds`: small and slow by default, so that long files stay small. */
export const testPicture = (seconds: number, size = '16x16', rate = 1) => `testsrc=duration=${seconds}:size=${size}:rate=${rate}`

/** A 440 Hz tone for `seconds`. */
export const tone = (seconds: number) => `sine=frequency=440:duration=${seconds}`

const FFMPEG = ['-loglevel', 'error', '-y']

/** Writes `path` from `input` with the `output` arguments (codec, tags, format) and answers its bytes. */
export function makeMedia(path: string, input: string[], output: string[]): Buffer {
  execFileSync('ffmpeg', [...FFMPEG, ...input, ...output, path])
  return readFileSync(path)
}

/**
 * The same written to a pipe, as a recorder streams it (a WebM then has no Duration and clusters of
 * unknown size): `output` must name the format (`-f webm`). Kept at `path` too when one is given.
 */
export function streamMedia(input: string[], output: string[], path?: string): Buffer {
  const bytes = execFileSync('ffmpeg', [...FFMPEG, ...input, ...output, '-'], { maxBuffer: 256 * 1024 * 1024 })
  if (path) writeFileSync(path, bytes)
  return bytes
}
