import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { html, jpeg, mp4, png } from '../support/fixtures'
import { keyOfUrl, putBytes, sendParts, stagedKeyOfUrl, uploadFile } from '../support/uploads'
import { AUTHOR_MAX_LENGTH } from '../../shared/limits'

const MiB = 1024 * 1024

// The same suite against both drivers: the local disk and a real S3-compatible server (s3rver).
describe.each(['local', 's3'] as const)('guest uploads (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, db: true })

  const setEvent = (patch: Record<string, unknown>) =>
    api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
  const init = (body: Record<string, unknown>) =>
    api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'IMG_0001.JPG', author: 'Ana', message: '', ...body } })

  it('init accepts every accepted type and answers 201 pending with one PUT', async () => {
    const types = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif', 'video/mp4', 'video/quicktime', 'video/webm']
    for (const contentType of types) {
      const response = await init({ contentType, size: 1000, durationSec: 10 })
      expect(response.status, contentType).toBe(201)
      expect(response.body).toMatchObject({ status: 'pending', kind: contentType.startsWith('video/') ? 'video' : 'photo', upload: { type: 'single', method: 'PUT', headers: { 'content-type': contentType } } })
      expect(typeof response.body.id).toBe('string')
      expect(Date.parse(response.body.expiresAt)).toBeGreaterThan(Date.now())
      expect(response.body.upload.url).not.toContain('IMG_0001')
      expect(response.body.upload.url).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/i)
    }
  })

  it('init refuses with the contract codes', async () => {
    expect((await init({ contentType: 'image/svg+xml', size: 10 })).body.data.code).toBe('UNSUPPORTED_TYPE')
    expect((await init({ contentType: 'text/html', size: 10 })).status).toBe(415)
    expect((await init({ contentType: 'application/octet-stream', size: 10 })).status).toBe(415)

    const tooBig = await init({ contentType: 'image/jpeg', size: 524288001 })
    expect(tooBig.status).toBe(413)
    expect(tooBig.body.data).toEqual({ code: 'FILE_TOO_LARGE', limit: 524288000 })

    const noDuration = await init({ contentType: 'video/mp4', size: 100 })
    expect([noDuration.status, noDuration.body.data.code]).toEqual([422, 'DURATION_REQUIRED'])
    const tooLong = await init({ contentType: 'video/mp4', size: 100, durationSec: 300.5 })
    expect([tooLong.status, tooLong.body.data.code, tooLong.body.data.limit]).toEqual([422, 'VIDEO_TOO_LONG', 300])

    expect((await setEvent({ allowVideos: false })).status).toBe(200)
    const disabled = await init({ contentType: 'video/mp4', size: 100, durationSec: 3 })
    expect([disabled.status, disabled.body.data.code]).toEqual([422, 'VIDEOS_DISABLED'])
    await setEvent({ allowVideos: true })

    // A limit changed live applies to the very next init.
    await setEvent({ maxFileSizeBytes: 5000 })
    expect((await init({ contentType: 'image/jpeg', size: 5001 })).body.data).toEqual({ code: 'FILE_TOO_LARGE', limit: 5000 })
    expect((await init({ contentType: 'image/jpeg', size: 5000 })).status).toBe(201)
    await setEvent({ maxFileSizeBytes: 524288000 })

    const bad = await init({ contentType: 'image/jpeg', size: -1 })
    expect([bad.status, bad.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(Array.isArray(bad.body.data.issues)).toBe(true)
    expect((await init({ contentType: 'image/jpeg', size: 10, extra: 1 })).status).toBe(400)
    expect((await init({ contentType: 'image/jpeg', size: 10, author: 'x'.repeat(AUTHOR_MAX_LENGTH + 1) })).status).toBe(400)
  })

  it('49.9 MiB is one PUT; 50 MiB + 1 byte is multipart with 10 MiB parts and the rest last', async () => {
    const single = await init({ contentType: 'video/mp4', size: Math.floor(49.9 * MiB), durationSec: 5 })
    expect(single.body.upload.type).toBe('single')
    const exact = await init({ contentType: 'video/mp4', size: 50 * MiB, durationSec: 5 })
    expect(exact.body.upload.type).toBe('single')

    const multi = await init({ contentType: 'video/mp4', size: 50 * MiB + 1, durationSec: 5 })
    expect(multi.body.upload.type).toBe('multipart')
    expect(multi.body.upload.partSize).toBe(10485760)
    expect(multi.body.upload.parts.map((p: any) => p.partNumber)).toEqual([1, 2, 3, 4, 5, 6])
    expect(multi.body.upload.parts.map((p: any) => p.size)).toEqual([10485760, 10485760, 10485760, 10485760, 10485760, 1])
    await api(server.url, `/api/uploads/${multi.body.id}/abort`, { method: 'POST' })
  })

  it('a photo under post-moderation is approved at confirm, its bytes stored as sent', async () => {
    await setEvent({ moderation: 'post' })
    const bytes = await jpeg()
    const { init: created, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length })
    expect(confirm.status).toBe(200)
    expect(confirm.body).toEqual({ id: created.id, status: 'approved' })
    const key = keyOfUrl(created.upload.url)
    expect((await server.probe.read(key)).equals(bytes)).toBe(true)
    // Confirming twice answers the same result again.
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST', json: {} })).body).toEqual({ id: created.id, status: 'approved' })
  })

  it('a 60 MiB video in parts under pre-moderation stays pending at confirm', async () => {
    await setEvent({ moderation: 'pre' })
    const bytes = mp4(60 * MiB)
    const { init: created, confirm } = await uploadFile(server.url, bytes, { contentType: 'video/mp4', size: bytes.length, durationSec: 42.5 })
    expect(created.upload.type).toBe('multipart')
    expect(created.upload.parts).toHaveLength(6)
    expect(confirm.status).toBe(200)
    expect(confirm.body).toEqual({ id: created.id, status: 'pending' })
    const key = keyOfUrl(created.upload.parts[0].url)
    const stored = await server.probe.read(key)
    expect(stored.length).toBe(bytes.length)
    expect(stored.equals(bytes)).toBe(true)
    expect(await server.probe.openMultipartUploads()).toBe(0)
    await setEvent({ moderation: 'post' })
  })

  it('a video under post-moderation is approved, and a .mov that is really MP4 is accepted', async () => {
    const bytes = mp4(2048)
    const { confirm } = await uploadFile(server.url, bytes, { contentType: 'video/quicktime', size: bytes.length, durationSec: 3 })
    expect(confirm.body.status).toBe('approved')
  })

  it('confirm before any bytes is 409 OBJECT_MISSING; after the upload, confirm succeeds', async () => {
    const bytes = await png()
    const created = (await init({ contentType: 'image/png', size: bytes.length })).body
    const early = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect([early.status, early.body.data.code]).toEqual([409, 'OBJECT_MISSING'])
    expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(200)
    const late = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(late.body).toEqual({ id: created.id, status: 'approved' })
  })

  it('confirm of a multipart upload with a missing part is 409 and names the part', async () => {
    const bytes = mp4(25 * MiB)
    const created = (await init({ contentType: 'video/mp4', size: 60 * MiB, durationSec: 3 })).body
    await sendParts(created, Buffer.concat([bytes, Buffer.alloc(35 * MiB)]), [1, 2, 4, 5, 6])
    const missing = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(missing.status).toBe(409)
    expect(missing.body.data).toEqual({ code: 'OBJECT_MISSING', missingParts: [3] })
    await api(server.url, `/api/uploads/${created.id}/abort`, { method: 'POST' })
  })

  it('a shorter object than declared is 422 CONTENT_MISMATCH and nothing is left behind', async () => {
    const bytes = await jpeg()
    const created = (await init({ contentType: 'image/jpeg', size: bytes.length + 10 })).body
    const key = keyOfUrl(created.upload.url)
    if (driver === 's3') {
      // s3rver does not enforce the signed length (real S3 does); the server must check itself.
      expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(200)
    }
    else {
      expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(400)
      return
    }
    const confirm = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect([confirm.status, confirm.body.data.code]).toEqual([422, 'CONTENT_MISMATCH'])
    expect(await server.probe.exists(key)).toBe(false)
    expect(await server.probe.exists(stagedKeyOfUrl(created.upload.url))).toBe(false)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(404)
  })

  it('HTML bytes declared as JPEG are 422 CONTENT_MISMATCH, object and record removed', async () => {
    const created = (await init({ contentType: 'image/jpeg', size: html.length })).body
    const key = keyOfUrl(created.upload.url)
    expect((await putBytes(created.upload.url, html, created.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(confirm.status).toBe(422)
    expect(confirm.body.data.code).toBe('CONTENT_MISMATCH')
    expect(await server.probe.exists(key)).toBe(false)
    expect(await server.probe.exists(stagedKeyOfUrl(created.upload.url))).toBe(false)
    expect((await api(server.url, `/api/uploads/${created.id}/abort`, { method: 'POST' })).status).toBe(404)
  })

  it('a video declared as a photo is 422 CONTENT_MISMATCH', async () => {
    const bytes = mp4(4096)
    const created = (await init({ contentType: 'image/jpeg', size: bytes.length })).body
    await putBytes(created.upload.url, bytes, created.upload.headers)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).body.data.code).toBe('CONTENT_MISMATCH')
  })

  it('ten concurrent confirms all get the same answer', async () => {
    const bytes = await jpeg(32, 32)
    const created = (await init({ contentType: 'image/jpeg', size: bytes.length })).body
    await putBytes(created.upload.url, bytes, created.upload.headers)
    const answers = await Promise.all(Array.from({ length: 10 }, () => api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })))
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ id: created.id, status: 'approved' })
    }
  })

  it('ten concurrent confirms of a multipart upload complete it once', async () => {
    const bytes = mp4(51 * MiB)
    const created = (await init({ contentType: 'video/mp4', size: bytes.length, durationSec: 9 })).body
    await sendParts(created, bytes)
    const answers = await Promise.all(Array.from({ length: 10 }, () => api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })))
    expect(answers.map(a => a.status)).toEqual(Array(10).fill(200))
    expect((await server.probe.read(keyOfUrl(created.upload.parts[0].url))).equals(bytes)).toBe(true)
  })

  it('abort mid-multipart removes the record and the parts; abort after confirm is 409', async () => {
    const bytes = mp4(55 * MiB)
    const created = (await init({ contentType: 'video/mp4', size: bytes.length, durationSec: 9 })).body
    await sendParts(created, bytes, [1, 2])
    const aborted = await api(server.url, `/api/uploads/${created.id}/abort`, { method: 'POST' })
    expect(aborted.status).toBe(200)
    expect(aborted.body).toEqual({ id: created.id, aborted: true })
    expect(await server.probe.openMultipartUploads()).toBe(0)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(404)

    const photo = await jpeg()
    const { init: done } = await uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })
    const late = await api(server.url, `/api/uploads/${done.id}/abort`, { method: 'POST' })
    expect([late.status, late.body.data.code]).toEqual([409, 'ALREADY_CONFIRMED'])
    const refresh = await api(server.url, `/api/uploads/${done.id}/refresh`, { method: 'POST', json: {} })
    expect([refresh.status, refresh.body.data.code]).toEqual([409, 'ALREADY_CONFIRMED'])
  })

  it('a video may carry a poster frame sent before confirm; it becomes the gallery thumbnail', async () => {
    const video = mp4(4096)
    const poster = await jpeg(64, 36)
    const created = (await init({ fileName: 'v.mp4', contentType: 'video/mp4', size: video.length, durationSec: 2 })).body
    const signed = await api(server.url, `/api/uploads/${created.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: poster.length } })
    expect(signed.status).toBe(200)
    expect(signed.body.upload).toMatchObject({ type: 'single', method: 'PUT', headers: { 'content-type': 'image/jpeg' } })
    expect((await putBytes(signed.body.upload.url, poster, signed.body.upload.headers)).status).toBe(200)
    expect((await putBytes(created.upload.url, video, created.upload.headers)).status).toBe(200)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).body.status).toBe('approved')

    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: any) => i.id === created.id)
    expect(item.kind).toBe('video')
    expect(item.thumbUrl).toMatch(/-poster\.jpg$/)
    expect((await server.probe.read(keyOfUrl(signed.body.upload.url))).equals(poster)).toBe(true)

    const late = await api(server.url, `/api/uploads/${created.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: 10 } })
    expect([late.status, late.body.data.code]).toEqual([409, 'ALREADY_CONFIRMED'])
    const photo = (await init({ contentType: 'image/jpeg', size: 100 })).body
    expect((await api(server.url, `/api/uploads/${photo.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: 10 } })).body.data.code).toBe('NOT_ELIGIBLE')
    expect((await api(server.url, `/api/uploads/${photo.id}/poster`, { method: 'POST', json: { contentType: 'image/png', size: 10 } })).status).toBe(400)
    expect((await api(server.url, `/api/uploads/${photo.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: 3 * 1024 * 1024 } })).status).toBe(400)
  })

  it('a poster that is not a JPEG is dropped at confirm and the video keeps no thumbnail', async () => {
    const video = mp4(4096)
    const created = (await init({ fileName: 'v.mp4', contentType: 'video/mp4', size: video.length, durationSec: 2 })).body
    const signed = (await api(server.url, `/api/uploads/${created.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: html.length } })).body
    await putBytes(signed.upload.url, html, signed.upload.headers)
    await putBytes(created.upload.url, video, created.upload.headers)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: any) => i.id === created.id)
    expect(item.thumbUrl).toBeNull()
    expect(await server.probe.exists(keyOfUrl(signed.upload.url))).toBe(false)
    expect(await server.probe.exists(stagedKeyOfUrl(signed.upload.url))).toBe(false)
  })

  it('refresh while a confirm is under way is 409 ALREADY_CONFIRMED (confirm gives its answer), while an abort is, 404', async () => {
    const photo = await jpeg()
    const created = (await init({ contentType: 'image/jpeg', size: photo.length })).body
    expect((await putBytes(created.upload.url, photo, created.upload.headers)).status).toBe(200)
    // What a confirm still running (in another instance, or after its page reloaded) leaves on the row.
    const claim = (holder: 'confirm' | 'abort' | null, ms: number) =>
      server.db.execute({ sql: 'update uploads set claim = ?, claimed_until = ? where id = ?', args: [holder, holder ? Date.now() + ms : null, created.id] })
    const refresh = () => api(server.url, `/api/uploads/${created.id}/refresh`, { method: 'POST', json: {} })
    await claim('confirm', 60_000)
    expect(await refresh().then(r => [r.status, r.body.data.code])).toEqual([409, 'ALREADY_CONFIRMED'])
    await claim('abort', 60_000)
    expect(await refresh().then(r => [r.status, r.body.data.code])).toEqual([404, 'NOT_FOUND'])
    // A claim whose holder crashed lapses: the upload is open again, and then confirmed.
    await claim('confirm', -1)
    const again = await refresh()
    expect([again.status, again.body.upload.type]).toEqual([200, 'single'])
    const confirmed = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect([confirmed.status, confirmed.body.id]).toEqual([200, created.id])
  })

  it('unknown and malformed ids are 404 on confirm, abort and refresh', async () => {
    for (const action of ['confirm', 'abort', 'refresh']) {
      expect((await api(server.url, `/api/uploads/nope123/${action}`, { method: 'POST' })).body.data.code).toBe('NOT_FOUND')
      expect((await api(server.url, `/api/uploads/${'%2e%2e'}/${action}`, { method: 'POST' })).status).toBe(404)
    }
  })
})
