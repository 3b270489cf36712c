import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api, fetchFresh } from '../support/http'
import { locationTags, makeLargeVideo, makeLocationVideos, packetHashes, type LocationVideo } from '../support/location-videos'
import { keyOfUrl, stagedKeyOfUrl, uploadFile } from '../support/uploads'

// Videos sent straight to the API (an old page, a script): confirm blanks their recorded position
// itself, so what the public downloads carries none, whatever sent it.
let dir: string
let videos: Record<string, LocationVideo>
let large: LocationVideo

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'video-location-confirm-'))
  videos = makeLocationVideos(dir)
  // Over 50 MiB: sent in parts, joined at its final key, then blanked in place.
  large = makeLargeVideo(join(dir, 'large.mp4'), 55)
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe.each(['local', 's3'] as const)('confirm blanks a video\'s location (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })

  async function sendAndDownload(video: LocationVideo) {
    const bytes = readFileSync(video.file)
    const { init, confirm } = await uploadFile(server.url, bytes, { fileName: 'v', contentType: video.contentType, size: bytes.length, durationSec: 2 })
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === init.id)
    const served = join(dir, `served-${driver}-${init.id}`)
    writeFileSync(served, Buffer.from(await (await fetchFresh(item.url)).arrayBuffer()))
    return served
  }

  it('MP4 (moov first and last), QuickTime (©xyz, Apple keys, XMP), every place at once, WebM: same size, same packets, no location', async () => {
    for (const name of ['moov-last.mp4', 'moov-first.mp4', 'xyz.mov', 'apple.mov', 'every-place.mp4', 'xmp.mov', 'tagged.webm', 'large-moov.mp4']) {
      const video = videos[name]!
      expect(locationTags(video.file).length, name).toBeGreaterThan(0)
      const served = await sendAndDownload(video)
      expect(statSync(served).size, name).toBe(statSync(video.file).size)
      expect(locationTags(served), name).toEqual([])
      expect(packetHashes(served), name).toBe(packetHashes(video.file))
    }
  })

  it('a video over 50 MiB, sent in parts with its moov at the end, is blanked where it was joined', async () => {
    const served = await sendAndDownload(large)
    expect(statSync(served).size).toBe(statSync(large.file).size)
    expect(locationTags(served)).toEqual([])
    // Only the blanked boxes differ: the rest is byte for byte what was sent.
    const [sent, got] = [readFileSync(large.file), readFileSync(served)]
    let differing = 0
    for (let i = 0; i < sent.length; i++) if (sent[i] !== got[i]) differing++
    expect(differing).toBeGreaterThan(0)
    expect(differing).toBeLessThan(200)
  })

  it('an MP4 with no readable box structure is refused at confirm with 422 CONTENT_MISMATCH, and nothing is kept', async () => {
    const bytes = Buffer.alloc(4096)
    Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41')]).copy(bytes, 0)
    bytes.fill(0xab, 32)
    const { init, confirm } = await uploadFile(server.url, bytes, { fileName: 'v.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 2 })
    expect(confirm.status).toBe(422)
    expect(confirm.body.data).toMatchObject({ code: 'CONTENT_MISMATCH', declaredSize: 4096, storedSize: 4096, detectedType: 'video/mp4' })
    expect(['no-moov', 'unreadable']).toContain(confirm.body.data.videoProblem)
    expect((await api(server.url, `/api/uploads/${init.id}/confirm`, { method: 'POST' })).status).toBe(404)
    expect(await server.probe.exists(stagedKeyOfUrl(init.upload.url))).toBe(false)
    expect(await server.probe.exists(keyOfUrl(init.upload.url))).toBe(false)
  })
})
