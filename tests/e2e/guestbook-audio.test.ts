import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { lavfi, makeMedia, testPicture, tone } from '../support/ffmpeg-media'
import { jpeg } from '../support/fixtures'
import { setModeration } from '../support/seed'
import { putBytes, uploadFile } from '../support/uploads'

// Real recordings made by ffmpeg, carrying the tags a phone's recorder may write (a title, a
// comment, the guest's name, a position); exiftool reads what the server then serves.
const dir = mkdtempSync(join(tmpdir(), 'guestbook-audio-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TAGS = ['-metadata', 'title=Segredo', '-metadata', 'comment=Casa da Tia', '-metadata', 'artist=Tio Zé', '-metadata', 'location=+12.3456-045.6789/']

function record(name: string, codec: string[], seconds: number): Buffer {
  return makeMedia(join(dir, name), lavfi(tone(seconds)), [...codec, ...TAGS])
}
const opusWebm = (seconds = 3) => record(`opus-${seconds}.webm`, ['-c:a', 'libopus'], seconds)
const aacMp4 = (seconds = 3) => record(`aac-${seconds}.m4a`, ['-c:a', 'aac', '-f', 'mp4'], seconds)

function servedTags(bytes: Buffer, name: string): string {
  const path = join(dir, `served-${name}`)
  writeFileSync(path, bytes)
  return execFileSync('exiftool', ['-s', '-a', path]).toString()
}

describe.each(['local', 's3'] as const)('spoken guestbook messages (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })
  const init = (body: Record<string, unknown>) => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'recado.webm', ...body } })

  it.each([
    ['Opus in WebM', 'audio/webm', opusWebm],
    ['AAC in MP4', 'audio/mp4', aacMp4],
  ] as const)('%s: init → PUT → confirm → approve → GET /api/guestbook, served as audio with no tags', async (name, contentType, make) => {
    await setModeration(server.url, server.cookie, 'pre')
    const bytes = make()
    expect(servedTags(bytes, `before-${contentType.replace('/', '-')}`)).toMatch(/Segredo/)
    const { init: created, confirm } = await uploadFile(server.url, bytes, { contentType, size: bytes.length, durationSec: 3, author: 'Tio Zé', message: '' })
    expect(created.kind).toBe('audio')
    expect(confirm.status).toBe(200)
    expect(confirm.body).toEqual({ id: created.id, status: 'pending' })
    expect((await api(server.url, '/api/guestbook')).body.items.map((item: { id: string }) => item.id)).not.toContain(created.id)

    const approved = await admin(`/api/admin/guestbook/${created.id}`, { method: 'PATCH', json: { status: 'approved' } })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ id: created.id, type: 'audio', status: 'approved', author: 'Tio Zé', text: null })

    const item = (await api(server.url, '/api/guestbook')).body.items.find((entry: { id: string }) => entry.id === created.id)
    // The length confirm read from the bytes (3.008 s for ffmpeg's Opus in WebM), not the declared 3.
    expect(item).toEqual({
      id: created.id, type: 'audio', author: 'Tio Zé', text: null,
      audioUrl: expect.stringMatching(/^https?:\/\//), durationSec: expect.closeTo(3, 1), createdAt: expect.any(String),
    })
    const served = await fetch(item.audioUrl)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe(contentType)
    const servedBytes = Buffer.from(await served.arrayBuffer())
    expect(servedBytes.length).toBe(bytes.length)
    expect(servedTags(servedBytes, `${name}.${contentType === 'audio/mp4' ? 'm4a' : 'webm'}`)).not.toMatch(/Segredo|Casa da Tia|Tio Z|GPS|12\.3456/)
    const probed = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:format_tags', '-of', 'json', '-'], { input: servedBytes }).toString()
    expect(Number(JSON.parse(probed).format.duration)).toBeGreaterThan(2.5)
    expect(probed).not.toMatch(/Segredo|Casa da Tia/)

    // Never in the photo gallery or its counts.
    expect((await api(server.url, '/api/gallery?limit=100')).body.items.map((entry: { id: string }) => entry.id)).not.toContain(created.id)
    const stats = (await admin('/api/admin/stats')).body
    expect(stats.messages.approved).toBeGreaterThanOrEqual(1)
    await setModeration(server.url, server.cookie, 'post')
  })

  it('init refuses with the audio codes: 400 AUDIO_NOT_ALLOWED, 400 DURATION_TOO_LONG, 422 DURATION_REQUIRED', async () => {
    const tooLong = await init({ contentType: 'audio/webm', size: 1000, durationSec: 120.5 })
    expect([tooLong.status, tooLong.body.data.code, tooLong.body.data.limit]).toEqual([400, 'DURATION_TOO_LONG', 120])
    expect((await init({ contentType: 'audio/webm', size: 1000, durationSec: 120 })).status).toBe(201)
    const missing = await init({ contentType: 'audio/ogg', size: 1000 })
    expect([missing.status, missing.body.data.code]).toEqual([422, 'DURATION_REQUIRED'])
    for (const contentType of ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/aac']) {
      const accepted = await init({ contentType, size: 1000, durationSec: 5 })
      expect([accepted.status, accepted.body.kind], contentType).toEqual([201, 'audio'])
    }
    expect((await init({ contentType: 'audio/wav', size: 1000, durationSec: 5 })).body.data.code).toBe('UNSUPPORTED_TYPE')

    expect((await admin('/api/admin/event', { method: 'PATCH', json: { allowAudio: false, maxAudioDurationSec: 30 } })).body).toMatchObject({ allowAudio: false, maxAudioDurationSec: 30 })
    const refused = await init({ contentType: 'audio/webm', size: 1000, durationSec: 5 })
    expect([refused.status, refused.body.data.code]).toEqual([400, 'AUDIO_NOT_ALLOWED'])
    await admin('/api/admin/event', { method: 'PATCH', json: { allowAudio: true } })
    const shorter = await init({ contentType: 'audio/webm', size: 1000, durationSec: 31 })
    expect([shorter.status, shorter.body.data.limit]).toEqual([400, 30])
    await admin('/api/admin/event', { method: 'PATCH', json: { maxAudioDurationSec: 120 } })
  })

  it('confirm checks the duration again from the container: declared 3 s, 8 s stored, limit 5 s is 400 DURATION_TOO_LONG and nothing stays', async () => {
    await admin('/api/admin/event', { method: 'PATCH', json: { maxAudioDurationSec: 5 } })
    const bytes = aacMp4(8)
    const created = (await init({ contentType: 'audio/mp4', size: bytes.length, durationSec: 3 })).body
    expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect([confirm.status, confirm.body.data.code, confirm.body.data.limit]).toEqual([400, 'DURATION_TOO_LONG', 5])
    expect((await admin(`/api/admin/guestbook/${created.id}`, { method: 'PATCH', json: { status: 'approved' } })).status).toBe(404)
    await admin('/api/admin/event', { method: 'PATCH', json: { maxAudioDurationSec: 120 } })
  })

  it('confirm refuses bytes that are not an audio container of the declared family (422 CONTENT_MISMATCH)', async () => {
    const photo = await jpeg()
    const asAudio = (await init({ contentType: 'audio/webm', size: photo.length, durationSec: 3 })).body
    await putBytes(asAudio.upload.url, photo, asAudio.upload.headers)
    const mismatch = await api(server.url, `/api/uploads/${asAudio.id}/confirm`, { method: 'POST' })
    expect([mismatch.status, mismatch.body.data.code]).toEqual([422, 'CONTENT_MISMATCH'])

    const mp4 = aacMp4()
    const wrongFamily = (await init({ contentType: 'audio/webm', size: mp4.length, durationSec: 3 })).body
    await putBytes(wrongFamily.upload.url, mp4, wrongFamily.upload.headers)
    expect((await api(server.url, `/api/uploads/${wrongFamily.id}/confirm`, { method: 'POST' })).body.data.code).toBe('CONTENT_MISMATCH')

    const videoBytes = makeMedia(join(dir, 'video.webm'), lavfi(testPicture(1, '64x48', 5)), ['-c:v', 'libvpx'])
    const disguised = (await init({ contentType: 'audio/webm', size: videoBytes.length, durationSec: 1 })).body
    await putBytes(disguised.upload.url, videoBytes, disguised.upload.headers)
    const refused = await api(server.url, `/api/uploads/${disguised.id}/confirm`, { method: 'POST' })
    expect([refused.status, refused.body.data.code, refused.body.data.videoProblem]).toEqual([422, 'CONTENT_MISMATCH', 'not-audio'])
  })

  it('an admin deletes a spoken message with its bytes; bulk reaches spoken and written ones alike', async () => {
    const bytes = opusWebm(2)
    const { init: created } = await uploadFile(server.url, bytes, { contentType: 'audio/webm', size: bytes.length, durationSec: 2 })
    const written = (await api(server.url, '/api/guestbook', { method: 'POST', json: { text: 'Oi' } })).body
    const bulk = await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids: [created.id, written.id], action: 'reject' } })
    expect(bulk.body).toEqual({ action: 'reject', processed: [created.id, written.id], notFound: [] })
    const rejected = await admin('/api/admin/guestbook?status=rejected')
    expect(rejected.body.items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([created.id, written.id]))
    const audioUrl = rejected.body.items.find((item: { id: string }) => item.id === created.id).audioUrl
    const deleted = await admin(`/api/admin/guestbook/${created.id}`, { method: 'DELETE' })
    expect([deleted.status, deleted.body]).toEqual([200, { id: created.id, deleted: true }])
    expect((await fetch(audioUrl)).status).toBe(404)
  })
})
