import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blobReader } from '../../shared/media/mp4-duration'
import { needsDisplayCopy, readVideoCodec } from '../../shared/media/video-codec'
import { scanVideoLocation } from '../../shared/media/video-location'
import { lavfi, makeMedia, testPicture, tone } from '../support/ffmpeg-media'

const dir = mkdtempSync(join(tmpdir(), 'video-codec-'))
const files: Record<string, Buffer> = {}
const picture = lavfi(testPicture(1, '64x48', 10))
const x265 = ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error']

beforeAll(() => {
  files.h264 = makeMedia(join(dir, 'h264.mp4'), picture, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'])
  files.hev1 = makeMedia(join(dir, 'hev1.mp4'), picture, x265)
  // What an iPhone writes: HEVC tagged hvc1 in a QuickTime file, portrait by a rotation.
  // (Debian's ffmpeg 5.1 writes the rotation only when it copies the stream, not while it encodes.)
  makeMedia(join(dir, 'landscape.mov'), picture, [...x265, '-tag:v', 'hvc1'])
  files.iphone = makeMedia(join(dir, 'iphone.mov'), ['-i', join(dir, 'landscape.mov')], ['-c', 'copy', '-tag:v', 'hvc1', '-metadata:s:v:0', 'rotate=90'])
  files.vp9Webm = makeMedia(join(dir, 'vp9.webm'), picture, ['-c:v', 'libvpx-vp9', '-b:v', '50k'])
  files.vp9Mp4 = makeMedia(join(dir, 'vp9.mp4'), picture, ['-c:v', 'libvpx-vp9', '-b:v', '50k'])
  files.hevcMkv = makeMedia(join(dir, 'hevc.mkv'), picture, x265)
  files.vp8 = makeMedia(join(dir, 'vp8.webm'), picture, ['-c:v', 'libvpx', '-b:v', '50k'])
  // The sound is the first track: the video's sample entry is the second trak's.
  files.audioFirst = makeMedia(join(dir, 'audio-first.mp4'), [...lavfi(tone(1)), ...picture], ['-map', '0', '-map', '1', '-c:a', 'aac', '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error'])
  files.audioOnly = makeMedia(join(dir, 'audio-only.mp4'), lavfi(tone(1)), ['-c:a', 'aac'])
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const codecOf = (bytes: Uint8Array, container: 'mp4' | 'matroska') => readVideoCodec(blobReader(new Blob([new Uint8Array(bytes)])), bytes.length, container)

describe('readVideoCodec', () => {
  it('reads h264 from libx264\'s avc1 sample entry', async () => {
    expect(await codecOf(files.h264!, 'mp4')).toBe('h264')
  })

  it('reads hevc from libx265\'s hev1 and from an iPhone-like portrait hvc1 QuickTime file', async () => {
    expect(await codecOf(files.hev1!, 'mp4')).toBe('hevc')
    expect(await codecOf(files.iphone!, 'mp4')).toBe('hevc')
  })

  it('reads vp9 from WebM (CodecID V_VP9) and from MP4 (vp09)', async () => {
    expect(await codecOf(files.vp9Webm!, 'matroska')).toBe('vp9')
    expect(await codecOf(files.vp9Mp4!, 'mp4')).toBe('vp9')
  })

  it('reads hevc from Matroska (V_MPEGH/ISO/HEVC) and vp8 from WebM', async () => {
    expect(await codecOf(files.hevcMkv!, 'matroska')).toBe('hevc')
    expect(await codecOf(files.vp8!, 'matroska')).toBe('vp8')
  })

  it('finds the video track behind a sound track, and answers null for a file with no picture', async () => {
    expect(await codecOf(files.audioFirst!, 'mp4')).toBe('hevc')
    expect(await codecOf(files.audioOnly!, 'mp4')).toBeNull()
  })

  it('answers null for bytes that are not a video and for a cut file', async () => {
    expect(await codecOf(new TextEncoder().encode('<html>not a video</html>'), 'mp4')).toBeNull()
    expect(await codecOf(new TextEncoder().encode('<html>not a video</html>'), 'matroska')).toBeNull()
    expect(await codecOf(files.hev1!.subarray(0, 40), 'mp4')).toBeNull()
  })

  it('names an unknown sample entry only when it is printable', async () => {
    const forged = Buffer.from(files.h264!)
    const at = forged.indexOf('avc1', forged.indexOf('stsd'))
    forged.write('\u0001\u0002<>', at, 'latin1')
    expect(await codecOf(forged, 'mp4')).toBe('unknown')
    forged.write('mp4v', at, 'latin1')
    expect(await codecOf(forged, 'mp4')).toBe('mp4v')
  })
})

describe('the location scan reads the codec with the duration', () => {
  it('answers videoCodec beside durationSec, and neither without measureDuration', async () => {
    const bytes = files.iphone!
    const read = blobReader(new Blob([new Uint8Array(bytes)]))
    const measured = await scanVideoLocation(read, bytes.length, { container: 'mp4', measureDuration: true })
    expect(measured).toMatchObject({ ok: true, videoCodec: 'hevc' })
    expect(measured.ok && measured.durationSec).toBeCloseTo(1, 1)
    const plain = await scanVideoLocation(read, bytes.length, { container: 'mp4' })
    expect(plain.ok && 'videoCodec' in plain).toBe(false)
  })
})

describe('needsDisplayCopy', () => {
  it('copies HEVC, VP9, AV1 and unnamed codecs; serves H.264, VP8 and an unknown codec as they are', () => {
    expect(['hevc', 'vp9', 'av1', 'mp4v', 'unknown'].map(needsDisplayCopy)).toEqual([true, true, true, true, true])
    expect(['h264', 'vp8', null].map(needsDisplayCopy)).toEqual([false, false, false])
  })
})
