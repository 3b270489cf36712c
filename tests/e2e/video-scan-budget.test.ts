import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { deepTagsWebm, manyBoxesMp4, manyVoidsWebm } from '../support/crafted-videos'
import { locationTags, makeLargeVideo } from '../support/location-videos'
import { keyOfUrl, putBytes, stagedKeyOfUrl } from '../support/uploads'
import { SNIFF_BYTES } from '../../shared/limits'

// Hostile videos at confirm: a WebM nesting SimpleTags 30,000 deep, an 800 KB MP4 of
// 99,000 empty boxes, a WebM of 60,000 Void elements. Each is refused (422 CONTENT_MISMATCH,
// too-complex) with its bytes and record gone; on S3 every request the confirm makes is counted
// at s3rver, for those and for a normal 20 MiB video with its moov and position at the end.

const MAX_CONFIRM_REQUESTS = 20

let dir: string
let normal: Buffer

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'video-scan-budget-'))
  normal = readFileSync(makeLargeVideo(join(dir, 'normal.mp4'), 20).file)
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each(['local', 's3'] as const)('the location scan\'s budgets at confirm (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })

  /** init → PUT, then only the confirm, with the storage requests it made (S3). */
  async function confirmOf(bytes: Buffer, contentType: string) {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v', contentType, size: bytes.length, durationSec: 2 } })
    expect(init.status, JSON.stringify(init.body)).toBe(201)
    expect(init.body.upload.type).toBe('single')
    expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
    if (driver === 's3') server.s3.requests.length = 0
    const confirm = await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
    // Requests on objects only: the staging sweep lists the bucket (a GET with no key) on its own clock,
    // and on a busy machine one listing fell inside this window and was counted as the confirm's.
    const requests = driver === 's3' ? server.s3.requests.filter(request => request.key !== '') : []
    return { init: init.body, confirm, requests }
  }

  async function expectRefused(bytes: Buffer, contentType: string) {
    const { init, confirm, requests } = await confirmOf(bytes, contentType)
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(422)
    expect(confirm.body.data).toEqual({ code: 'CONTENT_MISMATCH', declaredSize: bytes.length, storedSize: bytes.length, detectedType: contentType, videoProblem: 'too-complex' })
    // The record went with the bytes: a second confirm finds nothing, the storage holds nothing.
    expect((await api(server.url, `/api/uploads/${init.id}/confirm`, { method: 'POST' })).status).toBe(404)
    expect(await server.probe.exists(stagedKeyOfUrl(init.upload.url))).toBe(false)
    expect(await server.probe.exists(keyOfUrl(init.upload.url))).toBe(false)
    // The storage is not taken for down: health stays ok and the next upload is accepted.
    const health = await api(server.url, '/api/health')
    expect([health.status, health.body.storage]).toEqual([200, 'ok'])
    if (driver === 's3') {
      expect(requests.length, JSON.stringify(requests)).toBeLessThanOrEqual(MAX_CONFIRM_REQUESTS)
      // The scan read the small file whole, once; the other GET is the first bytes' sniff.
      expect(requests.filter(request => request.method === 'GET').map(request => request.range)).toEqual([`bytes=0-${bytes.length - 1}`, `bytes=0-${SNIFF_BYTES - 1}`])
    }
    return requests
  }

  it('a WebM whose SimpleTags nest 30,000 deep is refused: 422 too-complex, no 500 or 503', async () => {
    await expectRefused(deepTagsWebm(30_000), 'video/webm')
  })

  it('an 800 KB MP4 of 99,000 empty top-level boxes is refused, its scan one ranged GET on S3', async () => {
    const bytes = manyBoxesMp4(99_000)
    expect(bytes.length).toBeGreaterThan(790_000)
    await expectRefused(bytes, 'video/mp4')
  })

  it('a WebM of 60,000 Void elements is refused, its scan one ranged GET on S3', async () => {
    await expectRefused(manyVoidsWebm(60_000), 'video/webm')
  })

  it('a normal 20 MiB video with its moov and position at the end is confirmed, blanked, in at most 20 storage requests', async () => {
    const { init, confirm, requests } = await confirmOf(normal, 'video/mp4')
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === init.id)
    const served = join(dir, `served-${driver}.mp4`)
    writeFileSync(served, Buffer.from(await (await fetch(item.url)).arrayBuffer()))
    expect(locationTags(served)).toEqual([])
    if (driver === 's3') {
      expect(requests.length, JSON.stringify(requests)).toBeLessThanOrEqual(MAX_CONFIRM_REQUESTS)
      // A window at the start and one at the moov (the scan), the range around the patch (the copy), the sniff.
      expect(requests.filter(request => request.method === 'GET').length, JSON.stringify(requests)).toBeLessThanOrEqual(4)
    }
  })
})
