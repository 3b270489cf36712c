import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { lavfi, makeMedia, streamMedia, testPicture, tone } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { keyOfUrl, putBytes, uploadFile } from '../support/uploads'

// Confirm measures what the phone only declared: real files made by ffmpeg, long ones made small
// (16x16 at one frame a second, mono silence at a low bitrate), sent with a short `durationSec`.
const dir = mkdtempSync(join(tmpdir(), 'media-durations-e2e-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const make = (name: string, input: string, output: string[]) => makeMedia(join(dir, name), lavfi(input), output)
const frames = (seconds: number) => testPicture(seconds)
const silence = (seconds: number, rate = 8000) => `anullsrc=r=${rate}:cl=mono:d=${seconds}`

const files: Record<string, Buffer> = {}

beforeAll(() => {
  files.mp4 = make('400.mp4', frames(400), ['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mp4'])
  // Written to a pipe, as a recorder streams it: no Duration, clusters of unknown size.
  files.webm = streamMedia(lavfi(frames(400)), ['-c:v', 'libvpx', '-b:v', '20k', '-f', 'webm'])
  files.opus = make('600-opus.ogg', silence(600, 48000), ['-c:a', 'libopus', '-b:a', '6k', '-compression_level', '0', '-frame_duration', '60'])
  files.vorbis = make('600-vorbis.ogg', silence(600), ['-c:a', 'libvorbis', '-q:a', '0'])
  files.mp3 = make('600.mp3', silence(600), ['-c:a', 'libmp3lame', '-b:a', '8k'])
  files.shortMp4 = make('5.mp4', frames(5), ['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mp4'])
  files.shortOgg = make('5.ogg', silence(5), ['-c:a', 'libvorbis', '-q:a', '0'])
  files.m4a = make('tagged.m4a', tone(3), ['-c:a', 'aac', '-metadata', 'title=Segredo da Festa', '-metadata', 'comment=Casa da Tia Lucia'])
}, 300_000)

const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'.repeat(4))
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>'.repeat(4))

/** An Ogg page header with one segment, `OpusHead` where a reader looks for it, then garbage: 300 bytes. */
function garbageOgg(): Buffer {
  const bytes = Buffer.alloc(300, 0x5A)
  bytes.write('OggS\0\x02', 0, 'latin1')
  bytes[26] = 1
  bytes[27] = 19
  bytes.write('OpusHead', 28, 'latin1')
  return bytes
}

describe.each(['local', 's3'] as const)('confirm measures durations from the bytes (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  const admin = (path: string, json: Record<string, unknown>) => api(server.url, path, { method: 'PATCH', json, cookie: server.cookie })

  beforeAll(async () => {
    const limits = await admin('/api/admin/event', { moderation: 'post', maxVideoDurationSec: 60, maxAudioDurationSec: 120 })
    expect(limits.body).toMatchObject({ maxVideoDurationSec: 60, maxAudioDurationSec: 120 })
  })

  /** init declaring `durationSec`, one PUT, confirm; and whether the bytes are still stored after. */
  async function send(bytes: Buffer, contentType: string, durationSec: number) {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'f', contentType, size: bytes.length, durationSec } })
    expect(init.status, JSON.stringify(init.body)).toBe(201)
    expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
    const stored = await server.probe.exists(keyOfUrl(init.body.upload.url))
    return { id: init.body.id as string, confirm, stored }
  }

  it.each([
    ['MP4', 'mp4', 'video/mp4'],
    ['WebM without a Duration', 'webm', 'video/webm'],
  ] as const)('a 400 s %s declared as 1 s, limit 60 s: 422 VIDEO_TOO_LONG with limit and durationSec, the upload gone', async (_name, file, contentType) => {
    const { id, confirm, stored } = await send(files[file]!, contentType, 1)
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(422)
    expect(confirm.body.data).toEqual({ code: 'VIDEO_TOO_LONG', limit: 60, durationSec: expect.closeTo(file === 'webm' ? 399 : 400, 0) })
    expect(stored).toBe(false)
    expect((await api(server.url, `/api/uploads/${id}/confirm`, { method: 'POST' })).status).toBe(404)
  })

  it.each([
    ['Ogg Opus', 'opus', 'audio/ogg'],
    ['Ogg Vorbis', 'vorbis', 'audio/ogg'],
    ['MP3', 'mp3', 'audio/mpeg'],
  ] as const)('a 600 s %s voice message declared as 3 s, limit 120 s: 400 DURATION_TOO_LONG with limit and durationSec, the upload gone', async (_name, file, contentType) => {
    const { id, confirm, stored } = await send(files[file]!, contentType, 3)
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(400)
    expect(confirm.body.data).toEqual({ code: 'DURATION_TOO_LONG', limit: 120, durationSec: expect.closeTo(600, 0) })
    expect(stored).toBe(false)
    expect((await api(server.url, `/api/uploads/${id}/confirm`, { method: 'POST' })).status).toBe(404)
  })

  it('a good video and a good voice message are listed with their real durations, not the declared ones', async () => {
    const video = await uploadFile(server.url, files.shortMp4!, { contentType: 'video/mp4', size: files.shortMp4!.length, durationSec: 1 })
    expect(video.confirm.status).toBe(200)
    const listed = (await api(server.url, '/api/gallery?limit=100')).body.items.find((item: { id: string }) => item.id === video.init.id)
    expect(listed.durationSec).toBeCloseTo(5, 1)

    const audio = await uploadFile(server.url, files.shortOgg!, { contentType: 'audio/ogg', size: files.shortOgg!.length, durationSec: 2 })
    expect(audio.confirm.status).toBe(200)
    const message = (await api(server.url, '/api/guestbook')).body.items.find((item: { id: string }) => item.id === audio.init.id)
    expect(message.durationSec).toBeCloseTo(5, 1)
  })

  it('an M4A voice message made with a title and a comment is served without them (ffprobe, exiftool and the raw bytes)', async () => {
    const bytes = files.m4a!
    expect(bytes.includes('Segredo da Festa')).toBe(true)
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'audio/mp4', size: bytes.length, durationSec: 3 })
    expect(confirm.status).toBe(200)
    const item = (await api(server.url, '/api/guestbook')).body.items.find((entry: { id: string }) => entry.id === init.id)
    const served = Buffer.from(await (await fetch(item.audioUrl)).arrayBuffer())
    expect(served.length).toBe(bytes.length)
    const path = join(dir, `served-${driver}.m4a`)
    writeFileSync(path, served)
    const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:format_tags', '-of', 'json', path]).toString())
    expect(probed.format.tags?.title).toBeUndefined()
    expect(probed.format.tags?.comment).toBeUndefined()
    expect(Number(probed.format.duration)).toBeCloseTo(3, 0)
    expect(execFileSync('exiftool', ['-s', '-a', path]).toString()).not.toMatch(/Segredo|Casa da Tia/)
    expect(served.includes('Segredo')).toBe(false)
    expect(served.includes('Casa da Tia')).toBe(false)
  })

  it.each([
    ['MP3 sync bytes then HTML', 'audio/mpeg', Buffer.concat([Buffer.from([0xFF, 0xFB, 0x90, 0x64]), html])],
    ['ADTS header then SVG', 'audio/aac', Buffer.concat([Buffer.from([0xFF, 0xF1, 0x50, 0x80, 0x19, 0x1F, 0xFC]), svg])],
    ['a 300-byte Ogg of garbage behind an OpusHead', 'audio/ogg', garbageOgg()],
  ] as const)('%s: 422 CONTENT_MISMATCH, the upload gone', async (_name, contentType, bytes) => {
    const { confirm, stored } = await send(bytes, contentType, 3)
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(422)
    // The first bytes pass for the declared family: the frames or pages behind them are what fail.
    expect(confirm.body.data).toEqual({
      code: 'CONTENT_MISMATCH', declaredSize: bytes.length, storedSize: bytes.length,
      detectedType: { 'audio/mpeg': 'audio/mpeg', 'audio/aac': 'audio/aac', 'audio/ogg': 'audio/ogg; codecs=opus' }[contentType], videoProblem: 'unreadable',
    })
    expect(stored).toBe(false)
  })
})
