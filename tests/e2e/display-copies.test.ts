import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jpeg } from '../support/fixtures'
import { lavfi, makeMedia, testPicture, tone } from '../support/ffmpeg-media'
import { api } from '../support/http'
import { adminRecord as adminAnswer, openDatabase } from '../support/seed'
import { startS3, type TestS3 } from '../support/s3'
import { startServer, type TestServer } from '../support/server'
import { useTestServer } from '../support/suite/test-server'
import { keyOfUrl, uploadFile } from '../support/uploads'
import { unzip } from '../support/zip'
import { csvCell } from '../../server/utils/archive/csv'

/*
 * Videos whose codec not every browser plays get an H.264 display copy made by the server's ffmpeg
 * (Debian's, as on the machine running this); the original stays for the couple's export. The
 * fixtures are made here by the same ffmpeg, tiny so that a run on two cores stays quick.
 */

const dir = mkdtempSync(join(tmpdir(), 'display-copies-'))
const clips: Record<'iphone' | 'vp9' | 'h264' | 'wide' | 'hdr' | 'slow', Buffer> = {} as never
const x265 = ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error']

beforeAll(() => {
  const picture = lavfi(testPicture(1, '160x120', 10))
  // An iPhone's: HEVC tagged hvc1 in QuickTime, AAC sound, portrait by a 90° rotation.
  // (Debian's ffmpeg 5.1 writes the rotation only when it copies the stream, not while it encodes.)
  makeMedia(join(dir, 'landscape.mov'), [...picture, ...lavfi(tone(1))], [...x265, '-tag:v', 'hvc1', '-c:a', 'aac', '-shortest'])
  clips.iphone = makeMedia(join(dir, 'iphone.mov'), ['-i', join(dir, 'landscape.mov')], ['-c', 'copy', '-tag:v', 'hvc1', '-metadata:s:v:0', 'rotate=90'])
  clips.vp9 = makeMedia(join(dir, 'vp9.webm'), [...picture, ...lavfi(tone(1))], ['-c:v', 'libvpx-vp9', '-b:v', '50k', '-c:a', 'libopus', '-shortest'])
  clips.h264 = makeMedia(join(dir, 'h264.mp4'), picture, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'])
  clips.wide = makeMedia(join(dir, 'wide.mp4'), lavfi(testPicture(1, '1600x900', 3)), x265)
  // HDR as an iPhone films it: 10-bit HEVC, BT.2020 primaries, PQ transfer.
  clips.hdr = makeMedia(join(dir, 'hdr.mov'), picture, [...x265, '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p10le', '-color_primaries', 'bt2020', '-color_trc', 'smpte2084', '-colorspace', 'bt2020nc'])
  clips.slow = makeMedia(join(dir, 'slow.mp4'), lavfi(testPicture(2, '320x240', 10)), x265)
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Probed { streams: { codec_type: string, codec_name: string, width?: number, height?: number, color_transfer?: string, pix_fmt?: string, side_data_list?: { rotation?: number }[] }[], format: { format_name: string, tags?: Record<string, string> } }

/** What ffprobe reads in `bytes`. */
function probe(bytes: Buffer): Probed {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}`)
  writeFileSync(file, bytes)
  try {
    return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height,color_transfer,pix_fmt:stream_side_data=rotation:format=format_name:format_tags', '-of', 'json', file]).toString())
  }
  finally {
    rmSync(file)
  }
}

async function bytesAt(url: string): Promise<Buffer> {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

const videoBody = (bytes: Buffer, fileName: string, contentType: string) => ({ fileName, contentType, size: bytes.length, durationSec: 1, author: 'Tia Rosa' })

/** The admin's record of upload `id`. */
async function adminRecord(base: string, cookie: string, id: string): Promise<any> {
  const answer = await adminAnswer(base, cookie, id)
  expect(answer.status).toBe(200)
  return answer.body
}

/** Polls the gallery until `id` is listed (a copy in the making keeps it out), answering the item. */
async function listed(base: string, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const item = (await api(base, '/api/gallery?limit=100')).body.items.find((each: any) => each.id === id)
    if (item) return item
    if (Date.now() > deadline) throw new Error(`${id} was never listed`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

describe.each(['local', 's3'] as const)('display copies made by the server\'s ffmpeg (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  const sent: Record<string, { id: string, initBody: any }> = {}

  beforeAll(async () => {
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { guestDownloads: true }, cookie: server.cookie })
    for (const [name, contentType, fileName] of [['iphone', 'video/quicktime', 'IMG_0042.MOV'], ['vp9', 'video/webm', 'clip.webm'], ['h264', 'video/mp4', 'clip.mp4'], ['wide', 'video/mp4', 'wide.mp4'], ['hdr', 'video/quicktime', 'hdr.mov']] as const) {
      const { init, confirm } = await uploadFile(server.url, clips[name], videoBody(clips[name], fileName, contentType))
      expect([confirm.status, confirm.body.status]).toEqual([200, 'approved'])
      sent[name] = { id: init.id, initBody: init }
    }
  }, 60_000)

  it('init tells the phone that the server makes the copy', () => {
    expect(sent.iphone!.initBody.displayCopy).toBe('server')
  })

  it('an iPhone HEVC video is listed only with its copy: H.264 and AAC in a faststart MP4, upright, no tags', async () => {
    const admin = await adminRecord(server.url, server.cookie, sent.iphone!.id)
    expect(admin.videoCodec).toBe('hevc')
    // Never listed while pending: when the gallery has it, the copy is there.
    expect(['pending', 'copy']).toContain(admin.display)
    const item = await listed(server.url, sent.iphone!.id)
    expect(item.display).toBe('copy')
    expect(item.url).toMatch(/-copy\.mp4$/)
    const copy = await bytesAt(item.url)
    const probed = probe(copy)
    expect(probed.format.format_name).toContain('mp4')
    const video = probed.streams.find(stream => stream.codec_type === 'video')!
    expect(video.codec_name).toBe('h264')
    // The phone's rotation applied to the pixels: portrait, with no rotation left to apply.
    expect([video.width, video.height]).toEqual([120, 160])
    expect(video.side_data_list?.some(side => side.rotation)).toBeFalsy()
    expect(probed.streams.find(stream => stream.codec_type === 'audio')?.codec_name).toBe('aac')
    expect(Object.keys(probed.format.tags ?? {}).filter(tag => tag !== 'encoder' && !/^(major_brand|minor_version|compatible_brands)$/.test(tag))).toEqual([])
    expect(copy.indexOf('moov')).toBeLessThan(copy.indexOf('mdat'))
    expect((await adminRecord(server.url, server.cookie, sent.iphone!.id)).display).toBe('copy')
  })

  it('a copy is at most 1280 px on its long side, in the original\'s proportions', async () => {
    const item = await listed(server.url, sent.wide!.id)
    const video = probe(await bytesAt(item.url)).streams.find(stream => stream.codec_type === 'video')!
    expect([video.codec_name, video.width, video.height]).toEqual(['h264', 1280, 720])
  })

  it('an HDR (PQ) video\'s copy is tone-mapped to SDR: BT.709, 8-bit 4:2:0', async () => {
    const item = await listed(server.url, sent.hdr!.id)
    const video = probe(await bytesAt(item.url)).streams.find(stream => stream.codec_type === 'video')!
    expect([video.codec_name, video.pix_fmt, video.color_transfer]).toEqual(['h264', 'yuv420p', 'bt709'])
  })

  it('a VP9 WebM gets an H.264 MP4 copy too', async () => {
    const item = await listed(server.url, sent.vp9!.id)
    expect(item.display).toBe('copy')
    const probed = probe(await bytesAt(item.url))
    expect(probed.format.format_name).toContain('mp4')
    expect(probed.streams.map(stream => stream.codec_name).sort()).toEqual(['aac', 'h264'])
  })

  it('an H.264 upload is served untouched, byte for byte, and gets no copy', async () => {
    const item = await listed(server.url, sent.h264!.id)
    expect(item.display).toBe('original')
    expect(item.url).not.toMatch(/-copy\.mp4$/)
    expect((await bytesAt(item.url)).equals(clips.h264)).toBe(true)
    expect(await adminRecord(server.url, server.cookie, sent.h264!.id)).toMatchObject({ display: 'original', videoCodec: 'h264' })
  })

  it('downloads and the guests\' ZIP give the copy; the couple\'s export keeps the original byte for byte', async () => {
    const item = await listed(server.url, sent.iphone!.id)
    const copy = await bytesAt(item.url)
    const download = await fetch(item.downloadUrl)
    expect(download.headers.get('content-type')).toBe('video/mp4')
    expect(Buffer.from(await download.arrayBuffer()).equals(copy)).toBe(true)

    const guestZip = await unzip(await bytesAt(`${server.url}/api/gallery/download.zip`))
    expect(guestZip.some(entry => entry.bytes.equals(copy))).toBe(true)
    expect(guestZip.some(entry => entry.bytes.equals(clips.iphone))).toBe(false)

    const response = await fetch(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie } })
    const exported = await unzip(Buffer.from(await response.arrayBuffer()))
    expect(exported.some(entry => entry.bytes.equals(clips.iphone))).toBe(true)
    expect(exported.some(entry => entry.bytes.equals(clips.vp9))).toBe(true)
    expect(exported.some(entry => entry.bytes.equals(copy))).toBe(false)
    // The manifest names the original's entry, and says guests were shown a copy of it.
    const manifest = exported.find(entry => entry.name === 'manifest.csv')!.bytes.toString('utf8').split('\r\n')
    // An id that starts with "-" (1 in 64) carries the sheet's formula guard like any other cell.
    const line = manifest.find(row => row.startsWith(`${csvCell(sent.iphone!.id)},`))!
    const original = exported.find(entry => entry.bytes.equals(clips.iphone))!
    expect(line).toContain(`,${original.name},IMG_0042.MOV,`)
    expect(line.endsWith(',0,0,,convidados viram uma cópia H.264 (o original está aqui)')).toBe(true)
    expect(manifest.find(row => row.startsWith(`${csvCell(sent.h264!.id)},`))!.endsWith(',0,0,,')).toBe(true)
  })

  it('deleting the video removes its copy from storage', async () => {
    const item = await listed(server.url, sent.vp9!.id)
    const copyKey = keyOfUrl(item.url)
    expect(await server.probe.exists(copyKey)).toBe(true)
    const deleted = await api(server.url, `/api/admin/uploads/${sent.vp9!.id}`, { method: 'DELETE', cookie: server.cookie })
    expect(deleted.status).toBe(200)
    expect(await server.probe.exists(copyKey)).toBe(false)
  })
})

describe.each(['local', 's3'] as const)('without ffmpeg (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, env: { FFMPEG_PATH: join(tmpdir(), 'no-such-ffmpeg', 'ffmpeg') } })

  it('init asks the phone for the copy; an HEVC video sent without one is listed at once, poster-only, with its original and poster', async () => {
    const poster = await jpeg(640, 360)
    const { init, confirm } = await uploadFile(server.url, clips.iphone, videoBody(clips.iphone, 'IMG_0043.MOV', 'video/quicktime'), { poster })
    expect(init.displayCopy).toBe('phone')
    expect(confirm.status).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((each: any) => each.id === init.id)
    expect(item.display).toBe('poster-only')
    expect(item.thumbUrl).toMatch(/-poster\.jpg$/)
    expect((await bytesAt(item.url)).equals(clips.iphone)).toBe(true)
    expect(await adminRecord(server.url, server.cookie, init.id)).toMatchObject({ display: 'poster-only', videoCodec: 'hevc' })
  })
})

/*
 * The server killed while ffmpeg works: at the next start the copy is made from the beginning, as
 * photos' derivations are resumed. ffmpeg is reached through a script that says when it started
 * and waits a little first, so that the kill surely lands mid-transcode; the real ffmpeg does the work.
 */
describe.each(['local', 's3'] as const)('a copy interrupted by a crash (%s driver)', (driver) => {
  let s3: TestS3 | undefined
  let server: TestServer | undefined
  const started = join(dir, `started-${driver}`)
  const wrapper = join(dir, `ffmpeg-${driver}`)
  afterAll(async () => {
    if (existsSync(started)) {
      try {
        process.kill(Number(readFileSync(started, 'utf8')), 'SIGKILL')
      }
      catch {
        // Already finished.
      }
    }
    await server?.stop('SIGKILL')
    await s3?.stop()
  })

  it('is made at the next start, and the video is listed with it', async () => {
    writeFileSync(wrapper, `#!/bin/sh\necho $$ > '${started}'\nsleep 20\nexec ffmpeg "$@"\n`)
    chmodSync(wrapper, 0o755)
    if (driver === 's3') s3 = await startS3()
    const env = { ...s3?.env, SWEEP_INTERVAL_SECONDS: '0' }
    server = await startServer({ ...env, FFMPEG_PATH: wrapper })
    const { init, confirm } = await uploadFile(server.url, clips.slow, videoBody(clips.slow, 'slow.mp4', 'video/mp4'))
    expect(confirm.status).toBe(200)
    const deadline = Date.now() + 20_000
    while (!existsSync(started) && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 50))
    expect(existsSync(started)).toBe(true)
    await server.stop('SIGKILL')
    process.kill(Number(readFileSync(started, 'utf8')), 'SIGKILL')

    const db = openDatabase(server.dbPath)
    const row = (await db.execute({ sql: 'SELECT display, display_copy_key, derived_at FROM uploads WHERE id = ?', args: [init.id] })).rows[0]!
    db.close()
    expect([row.display, row.display_copy_key, row.derived_at]).toEqual(['pending', null, null])

    // Started again with the ffmpeg on the PATH.
    server = await startServer(env, server.dir)
    expect((await api(server.url, '/api/gallery?limit=100')).body.items.map((each: any) => each.id)).not.toContain(init.id)
    const item = await listed(server.url, init.id)
    expect(item.display).toBe('copy')
    expect(probe(await bytesAt(item.url)).streams.find(stream => stream.codec_type === 'video')?.codec_name).toBe('h264')
  }, 120_000)
})
