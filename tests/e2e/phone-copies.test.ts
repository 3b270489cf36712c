import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lavfi, makeMedia, testPicture, tone } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { adminRecord } from '../support/seed'
import { useTestServer } from '../support/suite/test-server'
import { putBytes, stagedKeyOfUrl, uploadFile } from '../support/uploads'

/*
 * A server without ffmpeg takes the display copy the phone made, once it has checked it: an MP4,
 * H.264, as long as the original (within a second), no larger than a 720p copy. The copies here
 * are made by Debian's ffmpeg, standing in for the phone's WebCodecs encoder; the forged ones are
 * what a script could send instead.
 */

const dir = mkdtempSync(join(tmpdir(), 'phone-copies-'))
const clips: Record<'original' | 'copy' | 'hevcCopy' | 'shortCopy', Buffer> = {} as never
const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')
const x265 = ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error']
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']

beforeAll(() => {
  // An iPhone's: 3 s of HEVC and AAC in QuickTime.
  clips.original = makeMedia(join(dir, 'original.mov'), [...lavfi(testPicture(3, '160x120', 10)), ...lavfi(tone(3))], [...x265, '-tag:v', 'hvc1', '-c:a', 'aac', '-shortest'])
  clips.copy = makeMedia(join(dir, 'copy.mp4'), [...lavfi(testPicture(3, '160x120', 10)), ...lavfi(tone(3))], [...x264, '-c:a', 'aac', '-shortest', '-movflags', '+faststart'])
  clips.hevcCopy = makeMedia(join(dir, 'hevc-copy.mp4'), lavfi(testPicture(3, '160x120', 10)), [...x265, '-tag:v', 'hvc1'])
  clips.shortCopy = makeMedia(join(dir, 'short-copy.mp4'), lavfi(testPicture(1, '160x120', 10)), x264)
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function codecOf(bytes: Buffer): string {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}`)
  writeFileSync(file, bytes)
  try {
    return execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]).toString().trim()
  }
  finally {
    rmSync(file)
  }
}

const videoBody = (bytes: Buffer, fileName: string) => ({ fileName, contentType: 'video/quicktime', size: bytes.length, durationSec: 3, author: 'Tia Rosa' })

async function galleryItem(base: string, id: string): Promise<any> {
  return (await api(base, '/api/gallery?limit=100')).body.items.find((each: any) => each.id === id)
}

describe.each(['local', 's3'] as const)('display copies made by the phone (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, env: { FFMPEG_PATH: join(tmpdir(), 'no-such-ffmpeg', 'ffmpeg') } })

  it('init tells the phone to make the copy; the server serves the H.264 copy it sent, checked', async () => {
    const { init, confirm, displayCopyKey } = await uploadFile(server.url, clips.original, videoBody(clips.original, 'IMG_0050.MOV'), { displayCopy: clips.copy })
    expect(init.displayCopy).toBe('phone')
    expect([confirm.status, confirm.body]).toEqual([200, { id: init.id, status: 'approved' }])
    const item = await galleryItem(server.url, init.id)
    expect(item.display).toBe('copy')
    expect(item.url).toMatch(/-copy\.mp4$/)
    const served = Buffer.from(await (await fetch(item.url)).arrayBuffer())
    expect(codecOf(served)).toBe('h264')
    expect(served.length).toBe(clips.copy.length)
    expect(await server.probe.exists(displayCopyKey!)).toBe(true)
    expect(await adminRecord(server.url, server.cookie, init.id)).toMatchObject({ status: 200, body: { display: 'copy', videoCodec: 'hevc' } })
  })

  it.each([
    ['codec', 'an HEVC copy', 'hevcCopy'],
    ['duration', 'a copy two seconds short', 'shortCopy'],
    ['container', 'an HTML page', 'html'],
  ] as const)('refuses %s: %s leaves nothing stored, and the video is shown with its poster', async (reason, _what, name) => {
    const bytes = name === 'html' ? html : clips[name]
    const { init, confirm, displayCopyKey } = await uploadFile(server.url, clips.original, videoBody(clips.original, `IMG_${reason}.MOV`), { displayCopy: bytes })
    expect([confirm.status, confirm.body]).toEqual([200, { id: init.id, status: 'approved', phoneCopyRefusal: reason }])
    const item = await galleryItem(server.url, init.id)
    expect(item.display).toBe('poster-only')
    expect(Buffer.from(await (await fetch(item.url)).arrayBuffer()).equals(clips.original)).toBe(true)
    expect(await server.probe.exists(displayCopyKey!)).toBe(false)
    expect(await server.probe.exists(`staging/${displayCopyKey}`)).toBe(false)
  })

  it('a copy sent for an upload the guest then aborts goes with it', async () => {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: videoBody(clips.original, 'IMG_abort.MOV') })
    const signed = await api(server.url, `/api/uploads/${init.body.id}/display-copy`, { method: 'POST', json: { contentType: 'video/mp4', size: clips.copy.length } })
    expect((await putBytes(signed.body.upload.url, clips.copy, signed.body.upload.headers)).status).toBe(200)
    const staged = stagedKeyOfUrl(signed.body.upload.url)
    expect(staged).toMatch(/^staging\/media\/.+-copy\.mp4$/)
    expect(await server.probe.exists(staged)).toBe(true)
    expect((await api(server.url, `/api/uploads/${init.body.id}/abort`, { method: 'POST' })).status).toBe(200)
    expect(await server.probe.exists(staged)).toBe(false)
  })

  it('a copy larger than a 720p copy of the video is not signed; a photo has none', async () => {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: videoBody(clips.original, 'IMG_big.MOV') })
    const tooLarge = await api(server.url, `/api/uploads/${init.body.id}/display-copy`, { method: 'POST', json: { contentType: 'video/mp4', size: 200_000_000 } })
    expect([tooLarge.status, tooLarge.body.data?.code]).toEqual([413, 'FILE_TOO_LARGE'])
    expect(tooLarge.body.data.limit).toBe(4 * 1024 * 1024 + 4 * 1_000_000)
    const photo = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 1000, author: 'Tia Rosa' } })
    const notVideo = await api(server.url, `/api/uploads/${photo.body.id}/display-copy`, { method: 'POST', json: { contentType: 'video/mp4', size: 1000 } })
    expect([notVideo.status, notVideo.body.data?.code]).toEqual([409, 'NOT_ELIGIBLE'])
  })
})

describe('a server with ffmpeg', () => {
  const server = useTestServer()

  it('makes its own copies: it signs none for the phone', async () => {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: videoBody(clips.original, 'IMG_0051.MOV') })
    expect(init.body.displayCopy).toBe('server')
    const signed = await api(server.url, `/api/uploads/${init.body.id}/display-copy`, { method: 'POST', json: { contentType: 'video/mp4', size: 1000 } })
    expect([signed.status, signed.body.data?.code]).toEqual([409, 'NOT_ELIGIBLE'])
  })
})
