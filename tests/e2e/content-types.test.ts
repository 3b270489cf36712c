import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { jpeg, mp4 } from '../support/fixtures'
import { makePhoneImages, sendPhoneImages } from '../support/phone-images'
import { adminRecord } from '../support/seed'
import { putBytes } from '../support/uploads'

/**
 * What a guest's PUT says about its bytes beyond what was signed (a disposition that downloads
 * them as a page, an encoding) never reaches what the public is served: posters and phone images
 * are served with the type the server decided, inline, on both drivers. A signed PUT binds its
 * type and length: sending another type is refused.
 */
const hostile = { 'content-disposition': 'attachment; filename="page.html"', 'content-encoding': 'gzip', 'content-language': 'xx' }

describe.each(['local', 's3'] as const)('content types of served objects (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })

  async function headersOf(url: string) {
    const response = await fetch(url)
    await response.arrayBuffer()
    return response.headers
  }

  function expectServedAs(headers: Headers, type: string) {
    expect(headers.get('content-type')).toBe(type)
    expect(headers.get('content-encoding')).toBeNull()
    expect(headers.get('content-language')).toBeNull()
    expect(headers.get('content-disposition') ?? 'inline').toBe('inline')
    if (driver === 'local') expect(headers.get('x-content-type-options')).toBe('nosniff')
  }

  it('a video\'s poster is served as image/jpeg, inline, whatever its PUT added', async () => {
    const video = mp4(4096)
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: video.length, durationSec: 3, author: 'Ana' } })
    expect(init.status).toBe(201)
    expect((await putBytes(init.body.upload.url, video, init.body.upload.headers)).status).toBe(200)
    const poster = await jpeg(64, 36)
    const signed = await api(server.url, `/api/uploads/${init.body.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: poster.length } })
    expect(signed.status).toBe(200)
    expect((await putBytes(signed.body.upload.url, poster, { ...signed.body.upload.headers, ...hostile })).status).toBe(200)
    expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((entry: { id: string }) => entry.id === init.body.id)
    expect(item.thumbUrl).toBeTruthy()
    expectServedAs(await headersOf(item.thumbUrl), 'image/jpeg')
    expectServedAs(await headersOf(item.url), 'video/mp4')
  })

  it('a photo\'s phone-made images are served as the type the server decided, inline', async () => {
    const original = await jpeg(1600, 1200)
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'p.jpg', contentType: 'image/jpeg', size: original.length, author: 'Ana' } })
    expect(init.status).toBe(201)
    expect((await putBytes(init.body.upload.url, original, { ...init.body.upload.headers, ...hostile })).status).toBe(200)
    await sendPhoneImages(server.url, init.body.id, await makePhoneImages(original), undefined, hostile)
    expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((entry: { id: string }) => entry.id === init.body.id)
    expectServedAs(await headersOf(item.url), 'image/jpeg')
    expectServedAs(await headersOf(item.thumbUrl), 'image/webp')
    expectServedAs(await headersOf(item.thumb2xUrl), 'image/webp')
  })

  // The type is signed into the URL on both drivers. The local driver refuses another one; s3rver
  // does not check signed headers on a presigned PUT (real S3 and R2 answer 403 SignatureDoesNotMatch),
  // so there the proof is that what is served is still the server's type.
  it('a PUT sent with another type than signed is refused (local) or served as the signed type (S3)', async () => {
    const original = await jpeg(40, 30)
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'p.jpg', contentType: 'image/jpeg', size: original.length, author: 'Ana' } })
    const put = await putBytes(init.body.upload.url, original, { ...init.body.upload.headers, 'content-type': 'text/html' })
    if (driver === 'local') {
      expect(put.status).toBe(403)
      expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })).status).toBe(409)
      return
    }
    expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })).status).toBe(200)
    const record = await adminRecord(server.url, server.cookie, init.body.id)
    const headers = await headersOf(record.body.originalUrl)
    expect(headers.get('content-type')).toBe('image/jpeg')
    expect(headers.get('cache-control')).toBe('private, no-store')
  })
})
