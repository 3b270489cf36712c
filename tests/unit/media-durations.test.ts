import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readAdtsAudio, readMpegAudio } from '../../shared/media/audio-frames'
import { MATROSKA_HEAD_BYTES, MATROSKA_TAIL_WINDOWS, readMatroskaDuration } from '../../shared/media/matroska-duration'
import { readMp4Duration } from '../../shared/media/mp4-duration'
import { readOggStream } from '../../shared/media/ogg-pages'
import { scanVideoLocation } from '../../shared/media/video-location'
import { lavfi, makeMedia, streamMedia, testPicture, tone } from '../support/ffmpeg-media'

// Real files made by Debian's ffmpeg, each 400 s (video: 16x16 at 1 frame a second) or 600 s
// (audio: mono, low bitrate), so that a wrong reader is minutes off, not milliseconds.
const dir = mkdtempSync(join(tmpdir(), 'media-durations-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const make = (name: string, input: string[], output: string[]) => new Uint8Array(makeMedia(join(dir, name), input, output))
const video = (name: string, output: string[]) => make(name, lavfi(testPicture(400)), output)
const silence = (name: string, output: string[], rate = 8000) => make(name, [...lavfi(`anullsrc=r=${rate}:cl=mono`), '-t', '600'], output)

/** A reader over bytes in memory that counts its calls and the bytes they return. */
function counted(bytes: Uint8Array) {
  const counter = { reads: 0, bytes: 0 }
  const read = async (start: number, end: number) => {
    counter.reads++
    const slice = bytes.subarray(start, end)
    counter.bytes += slice.length
    return slice
  }
  return { read, counter }
}

// ffmpeg on a machine shared by many: generous timeouts, never a timed assertion.
describe('video durations read from the bytes', { timeout: 120_000 }, () => {
  it.each([
    ['MP4', 'v.mp4', ['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mp4']],
    ['MOV', 'v.mov', ['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mov']],
    ['MP4 with its moov first', 'fast.mp4', ['-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', '-f', 'mp4']],
  ] as const)('%s: mvhd says 400 s', async (_name, file, output) => {
    const bytes = video(file, [...output])
    expect(await readMp4Duration(counted(bytes).read, bytes.length)).toBeCloseTo(400, 0)
  })

  it('WebM with Info/Duration: 400 s', async () => {
    const bytes = video('v.webm', ['-c:v', 'libvpx', '-b:v', '20k'])
    expect(await readMatroskaDuration(counted(bytes).read, bytes.length)).toBeCloseTo(400, 0)
  })

  it('WebM written to a pipe (no Duration, clusters of unknown size, as MediaRecorder writes): its last cluster\'s timecode plus its last block\'s offset', async () => {
    const path = join(dir, 'live.webm')
    const bytes = new Uint8Array(streamMedia(lavfi(testPicture(400)), ['-c:v', 'libvpx', '-b:v', '20k', '-f', 'webm'], path))
    expect(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString().trim()).toBe('N/A')
    // The last frame starts at 399 s (one a second): the length ffprobe cannot tell.
    expect(await readMatroskaDuration(counted(bytes).read, bytes.length)).toBe(399)
  })

  it('WebM: a Duration that claims 1 s loses to the clusters (the longer counts)', async () => {
    const bytes = video('claim.webm', ['-c:v', 'libvpx', '-b:v', '20k'])
    const lying = new Uint8Array(bytes)
    // Info/Duration is an 8-byte float after its ID 0x4489 and size 0x88.
    const at = Buffer.from(lying).indexOf(Buffer.from([0x44, 0x89, 0x88]))
    expect(at).toBeGreaterThan(0)
    new DataView(lying.buffer).setFloat64(at + 3, 1000)
    expect(await readMatroskaDuration(counted(lying).read, lying.length)).toBeGreaterThan(398)
  })

  it('WebM reads are bounded: the head and the last MiB for a 40 MiB recording; at most 4 reads, 21.25 MiB, when no cluster is near the end', async () => {
    const live = new Uint8Array(readFileSync(join(dir, 'live.webm')))
    const firstCluster = Buffer.from(live).indexOf(Buffer.from([0x1F, 0x43, 0xB6, 0x75]))
    // A Void element (0xEC, an 8-byte size) of `length` bytes: the Segment of a piped file has no size, so nothing else changes.
    const voidOf = (length: number) => {
      const element = new Uint8Array(length)
      element.set([0xEC, 0x01])
      new DataView(element.buffer).setUint32(5, length - 9)
      return element
    }
    const join3 = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))
    const padded = join3(live.subarray(0, firstCluster), voidOf(40 * 1024 * 1024), live.subarray(firstCluster))
    const early = counted(padded)
    expect(await readMatroskaDuration(early.read, padded.length)).toBe(399)
    expect(early.counter).toEqual({ reads: 2, bytes: MATROSKA_HEAD_BYTES + MATROSKA_TAIL_WINDOWS[0] })

    const trailing = join3(live, voidOf(20 * 1024 * 1024))
    const far = counted(trailing)
    expect(await readMatroskaDuration(far.read, trailing.length)).toBeNull()
    expect(far.counter.reads).toBe(4)
    expect(far.counter.bytes).toBe(MATROSKA_HEAD_BYTES + MATROSKA_TAIL_WINDOWS.reduce((sum, window) => sum + window, 0))
  })

  it('the location scan measures through its own windows when asked (confirm\'s one pass over a video)', async () => {
    const bytes = video('scan.mp4', ['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mp4'])
    const scan = await scanVideoLocation(counted(bytes).read, bytes.length, { container: 'mp4', measureDuration: true })
    expect(scan.ok && scan.durationSec).toBeCloseTo(400, 0)
    const unmeasured = await scanVideoLocation(counted(bytes).read, bytes.length, { container: 'mp4' })
    expect(unmeasured.ok && 'durationSec' in unmeasured).toBe(false)
  })
})

describe('audio durations read from the bytes', { timeout: 120_000 }, () => {
  it('Ogg Opus: last granule position minus pre-skip, over 48 kHz', () => {
    const bytes = silence('o.ogg', ['-c:a', 'libopus', '-b:a', '6k', '-compression_level', '0', '-frame_duration', '60'], 48000)
    const stream = readOggStream(bytes)
    expect(stream.ok && stream.durationSec).toBeCloseTo(600, 1)
  })

  it('Ogg Vorbis: last granule position over the identification header\'s sample rate', () => {
    const stream = readOggStream(silence('v.ogg', ['-c:a', 'libvorbis', '-q:a', '0']))
    expect(stream.ok && stream.durationSec).toBeCloseTo(600, 1)
  })

  it('MP3 CBR (no Xing frame count): frames counted over the whole file', () => {
    const stream = readMpegAudio(silence('c.mp3', ['-c:a', 'libmp3lame', '-b:a', '8k', '-write_xing', '0']))
    expect(stream.ok && stream.durationSec).toBeCloseTo(600, 0)
  })

  it('MP3 VBR with its Xing header: 600 s, and a Xing header claiming 3 s does not shorten it', () => {
    // A tone, not silence: on silence LAME writes every frame alike and an `Info` header.
    const bytes = make('vbr.mp3', [...lavfi(`${tone(600)}:sample_rate=8000`), '-ac', '1'], ['-c:a', 'libmp3lame', '-q:a', '9'])
    const xing = Buffer.from(bytes).indexOf('Xing')
    expect(xing).toBeGreaterThan(0)
    const stream = readMpegAudio(bytes)
    expect(stream.ok && stream.durationSec).toBeCloseTo(600, 0)
    const lying = new Uint8Array(bytes)
    new DataView(lying.buffer).setUint32(xing + 8, 20)
    const lied = readMpegAudio(lying)
    expect(lied.ok && lied.durationSec).toBeCloseTo(600, 0)
  })

  it('ADTS AAC: frames counted, 1024 samples each', () => {
    const stream = readAdtsAudio(silence('a.aac', ['-c:a', 'aac', '-b:a', '8k']))
    expect(stream.ok && stream.durationSec).toBeCloseTo(600, 0)
  })
})
