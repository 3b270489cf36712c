import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cleanAudioTags, sniffedAudioMatches } from '../../shared/media/audio-tags'
import { lavfi, makeMedia, testPicture, tone } from '../support/ffmpeg-media'

// Real recordings made by ffmpeg, read back by exiftool and ffprobe: what a guest's player sees.
const dir = mkdtempSync(join(tmpdir(), 'audio-tags-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TAGS = ['-metadata', 'title=Segredo', '-metadata', 'comment=Casa da Tia', '-metadata', 'artist=Tio Zé']

function record(name: string, args: string[], seconds = 2): Uint8Array {
  return new Uint8Array(makeMedia(join(dir, name), lavfi(tone(seconds)), [...args, ...TAGS]))
}

function tagsOf(bytes: Uint8Array, name: string): string {
  const path = join(dir, `clean-${name}`)
  writeFileSync(path, bytes)
  return execFileSync('exiftool', ['-s', '-a', path]).toString()
}

function durationOf(bytes: Uint8Array, name: string): number {
  const path = join(dir, `probe-${name}`)
  writeFileSync(path, bytes)
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString())
}

const cases = [
  { name: 'opus.webm', type: 'audio/webm', args: ['-c:a', 'libopus', '-metadata', 'location=+12.3456-045.6789/'] },
  { name: 'aac.m4a', type: 'audio/mp4', args: ['-c:a', 'aac', '-metadata', 'location=+12.3456-045.6789/', '-f', 'mp4'] },
  { name: 'opus.ogg', type: 'audio/ogg', args: ['-c:a', 'libopus'] },
  { name: 'vorbis.ogg', type: 'audio/ogg', args: ['-c:a', 'libvorbis'] },
  { name: 'mp3.mp3', type: 'audio/mpeg', args: ['-c:a', 'libmp3lame'] },
] as const

describe('audio tags are blanked in place', { timeout: 60_000 }, () => {
  it.each(cases)('$name: no title, comment, artist or position left; same length; still plays for its length', async ({ name, type, args }) => {
    const original = record(name, [...args])
    expect(tagsOf(original, name)).toMatch(/Segredo/)
    const cleaned = await cleanAudioTags(original, type)
    expect(cleaned.ok).toBe(true)
    if (!cleaned.ok) return
    expect(cleaned.bytes.length).toBe(original.length)
    expect(cleaned.changed).toBe(true)
    const left = tagsOf(cleaned.bytes, name)
    expect(left).not.toMatch(/Segredo|Casa da Tia|Tio Z|GPS|12\.3456/)
    expect(durationOf(cleaned.bytes, name)).toBeGreaterThan(1.5)
    // The original buffer is left as it was.
    expect(tagsOf(original, `orig-${name}`)).toMatch(/Segredo/)
  })

  it('reads the duration where the container says it (MP4 mvhd, Matroska Info)', async () => {
    const mp4 = await cleanAudioTags(record('long.m4a', ['-c:a', 'aac', '-f', 'mp4'], 5), 'audio/mp4')
    expect(mp4.ok && mp4.durationSec).toBeCloseTo(5, 0)
    const webm = await cleanAudioTags(record('long.webm', ['-c:a', 'libopus'], 5), 'audio/webm')
    expect(webm.ok && webm.durationSec).toBeCloseTo(5, 0)
  })

  it('a file with a video track is not audio; broken structure is unreadable', async () => {
    const video = makeMedia(join(dir, 'video.webm'), lavfi(testPicture(1, '64x48', 5)), ['-c:v', 'libvpx'])
    expect(await cleanAudioTags(new Uint8Array(video), 'audio/webm')).toEqual({ ok: false, reason: 'not-audio' })
    const truncated = record('cut.m4a', ['-c:a', 'aac', '-f', 'mp4']).slice(0, 40)
    truncated[3] = 0xFF
    expect(await cleanAudioTags(truncated, 'audio/mp4')).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('matches the sniffed type against the declared family only', () => {
    expect(sniffedAudioMatches('audio/webm', 'video/webm')).toBe(true)
    expect(sniffedAudioMatches('audio/mp4', 'audio/x-m4a')).toBe(true)
    expect(sniffedAudioMatches('audio/ogg', 'audio/opus')).toBe(true)
    expect(sniffedAudioMatches('audio/mpeg', 'audio/mpeg')).toBe(true)
    expect(sniffedAudioMatches('audio/mp4', 'video/webm')).toBe(false)
    expect(sniffedAudioMatches('audio/webm', 'image/jpeg')).toBe(false)
    expect(sniffedAudioMatches('audio/webm', undefined)).toBe(false)
  })
})
