import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readAdtsAudio, readMpegAudio } from '../../shared/media/audio-frames'
import { oggCrc, readOggStream } from '../../shared/media/ogg-pages'
import { cleanAudioTags } from '../../shared/media/audio-tags'
import { lavfi, makeMedia, tone } from '../support/ffmpeg-media'

// What proves bytes are an MP3, ADTS or Ogg stream: crafted files that only start like one, and
// real ffmpeg files cut, padded and tagged.
const dir = mkdtempSync(join(tmpdir(), 'audio-streams-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function record(name: string, output: string[], seconds = 2): Uint8Array {
  return new Uint8Array(makeMedia(join(dir, name), [...lavfi(`${tone(seconds)}:sample_rate=8000`), '-ac', '1'], output))
}

const html = new TextEncoder().encode('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'.repeat(4))
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'.repeat(4))
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))

describe('MP3 and ADTS: at least three chained frames', { timeout: 60_000 }, () => {
  it.each([
    ['MP3 (MPEG-1 layer III, 128 kb/s)', [0xFF, 0xFB, 0x90, 0x64], readMpegAudio],
    ['MP3 (MPEG-2 layer III)', [0xFF, 0xF3, 0x48, 0xC4], readMpegAudio],
    ['ADTS (AAC LC, 44.1 kHz, a 200-byte frame)', [0xFF, 0xF1, 0x50, 0x80, 0x19, 0x1F, 0xFC], readAdtsAudio],
  ] as const)('%s: a header followed by HTML or SVG is refused', (_name, header, read) => {
    expect(read(concat(new Uint8Array(header), html))).toEqual({ ok: false })
    expect(read(concat(new Uint8Array(header), svg))).toEqual({ ok: false })
  })

  it('two real frames, then HTML: refused; three real frames, then anything: a stream', () => {
    const mp3 = record('three.mp3', ['-c:a', 'libmp3lame', '-b:a', '32k', '-write_xing', '0', '-id3v2_version', '0'])
    // MPEG-2.5 layer III at 8 kHz: 72 × bitrate / rate bytes a frame, no padding needed.
    const length = 72 * 32000 / 8000
    expect(readMpegAudio(mp3.subarray(0, length * 3)).ok).toBe(true)
    expect(readMpegAudio(concat(mp3.subarray(0, length * 2), html))).toEqual({ ok: false })
    const three = readMpegAudio(concat(mp3.subarray(0, length * 3), html))
    expect(three.ok && three.frames).toBe(3)
  })

  it('a file shorter than three frames is a stream when its frames chain to its end', () => {
    const aac = record('short.aac', ['-c:a', 'aac', '-b:a', '16k'])
    const first = ((aac[3]! & 0x03) << 11) | (aac[4]! << 3) | (aac[5]! >> 5)
    const second = ((aac[first + 3]! & 0x03) << 11) | (aac[first + 4]! << 3) | (aac[first + 5]! >> 5)
    expect(readAdtsAudio(aac.subarray(0, first + second))).toMatchObject({ ok: true, frames: 2 })
    expect(readAdtsAudio(aac.subarray(0, first + second - 1))).toEqual({ ok: false })
  })

  it('an ID3v2 tag is skipped first (ffmpeg writes one with the tags); an ID3v1 tag after the frames is not a frame', () => {
    const mp3 = record('tagged.mp3', ['-c:a', 'libmp3lame', '-b:a', '16k', '-write_id3v1', '1', '-metadata', 'title=Segredo'], 3)
    expect(String.fromCharCode(...mp3.subarray(0, 3))).toBe('ID3')
    const stream = readMpegAudio(mp3)
    expect(stream.ok && stream.durationSec).toBeCloseTo(3, 0)
  })

  it('a break in the middle is followed to the next chain, as a player does: 10 s of junk-split audio counts whole', () => {
    const mp3 = record('ten.mp3', ['-c:a', 'libmp3lame', '-b:a', '16k', '-write_xing', '0', '-id3v2_version', '0'], 10)
    const half = 72 * 16000 / 8000 * 100
    const split = readMpegAudio(concat(mp3.subarray(0, half), html, mp3.subarray(half)))
    expect(split.ok && split.durationSec).toBeCloseTo(10, 0)
  })
})

describe('Ogg: every page whole, to the end, with a valid checksum', { timeout: 60_000 }, () => {
  it('a 300-byte file of "OggS" and garbage is refused', () => {
    const garbage = new Uint8Array(300).map((_, i) => (i * 151 + 7) % 256)
    garbage.set(new TextEncoder().encode('OggS'), 0)
    garbage[4] = 0
    expect(readOggStream(garbage)).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('a real page with a valid checksum followed by HTML is refused; a broken checksum in the middle is refused', () => {
    const ogg = record('v.ogg', ['-c:a', 'libvorbis'], 3)
    expect(readOggStream(ogg).ok).toBe(true)
    const firstPage = 27 + ogg[26]! + [...ogg.subarray(27, 27 + ogg[26]!)].reduce((sum, lace) => sum + lace, 0)
    expect(readOggStream(concat(ogg.subarray(0, firstPage), html))).toEqual({ ok: false, reason: 'unreadable' })
    const broken = new Uint8Array(ogg)
    broken[Math.floor(ogg.length / 2)]! ^= 0x01
    expect(readOggStream(broken)).toEqual({ ok: false, reason: 'unreadable' })
    expect(readOggStream(ogg.subarray(0, ogg.length - 1))).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('a page of another codec (a video stream) is not a spoken message', () => {
    const page = new Uint8Array(27 + 1 + 42)
    page.set(new TextEncoder().encode('OggS'))
    page[5] = 0x02
    page[26] = 1
    page[27] = 42
    page.set(new TextEncoder().encode('\x80theora'), 28)
    new DataView(page.buffer).setUint32(22, oggCrc(page), true)
    expect(readOggStream(page)).toEqual({ ok: false, reason: 'not-audio' })
  })
})

describe('every audio container\'s tags are gone from the bytes served', { timeout: 60_000 }, () => {
  const TAGS = ['-metadata', 'title=Segredo', '-metadata', 'comment=Casa da Tia']
  it.each([
    ['AAC in MP4', 'm.m4a', 'audio/mp4', ['-c:a', 'aac', '-f', 'mp4']],
    ['Opus in WebM', 'w.webm', 'audio/webm', ['-c:a', 'libopus']],
    ['Ogg Opus', 'o.ogg', 'audio/ogg', ['-c:a', 'libopus']],
    ['Ogg Vorbis', 'v.ogg', 'audio/ogg', ['-c:a', 'libvorbis']],
    ['MP3 (ID3v2 and ID3v1)', 't.mp3', 'audio/mpeg', ['-c:a', 'libmp3lame', '-write_id3v1', '1']],
    ['ADTS (ID3v2 and APEv2)', 't.aac', 'audio/aac', ['-c:a', 'aac', '-write_id3v2', '1', '-write_apetag', '1']],
  ] as const)('%s: neither the title nor the comment is anywhere in the cleaned bytes', async (_name, file, type, output) => {
    const bytes = record(file, [...output, ...TAGS])
    expect(Buffer.from(bytes).includes('Segredo')).toBe(true)
    const cleaned = await cleanAudioTags(bytes, type)
    expect(cleaned.ok).toBe(true)
    if (!cleaned.ok) return
    expect(cleaned.bytes.length).toBe(bytes.length)
    const served = Buffer.from(cleaned.bytes)
    expect(served.includes('Segredo')).toBe(false)
    expect(served.includes('Casa da Tia')).toBe(false)
    expect(cleaned.durationSec).toBeCloseTo(2, 0)
  })
})
