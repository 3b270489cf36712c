import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { jpeg } from '../support/fixtures'
import { phonePortrait } from '../support/phone-photos'
import { makePhoneImages, sendPhoneImages, type PhoneImages } from '../support/phone-images'
import { adminRecord, waitForDerived } from '../support/seed'
import { keyOfUrl, putBytes } from '../support/uploads'

/** The phone makes the public images, confirm checks them; refused ones fall back to derivation. */
describe.each(['local', 's3'] as const)('public images made on the phone (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  let original: Buffer
  let made: PhoneImages

  beforeAll(async () => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie: server.cookie })).status).toBe(200)
    // Stored 1600 × 1200 with EXIF orientation 6 and a GPS position: shown as a 1200 × 1600 portrait.
    original = await phonePortrait(1600, 1200)
    made = await makePhoneImages(original)
  })

  async function initPhoto(bytes = original) {
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'IMG_1.JPG', contentType: 'image/jpeg', size: bytes.length, author: 'Ana' } })
    expect(init.status).toBe(201)
    expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
    return init.body.id as string
  }
  const confirm = (id: string) => api(server.url, `/api/uploads/${id}/confirm`, { method: 'POST' })
  const galleryItem = async (id: string) => (await api(server.url, '/api/gallery?limit=100')).body.items.find((item: any) => item.id === id)
  const bytesAt = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer())
  // Bytes are compared with Buffer.equals: a deep toEqual of a megabyte walks it element by element
  // for seconds, long enough on a busy machine for the server to drop the idle keep-alive socket
  // that the next fetch then reuses ("other side closed").

  it('verified images are listed the moment confirm answers, served exactly as sent', async () => {
    const id = await initPhoto()
    const signed = await sendPhoneImages(server.url, id, made)
    for (const name of ['display', 'thumb', 'thumb2x'] as const) {
      expect(signed.upload[name]).toMatchObject({ type: 'single', method: 'PUT', headers: { 'content-type': made[name].contentType } })
      expect(new URL(signed.upload[name].url).pathname).toContain('staging/')
    }
    expect((await confirm(id)).body).toEqual({ id, status: 'approved' })

    const item = await galleryItem(id)
    expect(item).toMatchObject({ id, kind: 'photo', width: 1200, height: 1600 })
    expect((await bytesAt(item.url)).equals(made.display.bytes)).toBe(true)
    expect((await bytesAt(item.thumbUrl)).equals(made.thumb.bytes)).toBe(true)
    expect((await bytesAt(item.thumb2xUrl)).equals(made.thumb2x.bytes)).toBe(true)
    // Nothing stays in staging, and the admin sees who made them.
    for (const name of ['display', 'thumb', 'thumb2x'] as const) expect(await server.probe.exists(`staging/${keyOfUrl(signed.upload[name].url)}`)).toBe(false)
    const record = await adminRecord(server.url, server.cookie, id)
    expect(record.body.publicImage).toEqual({ source: 'phone', missing: null, phoneImagesRefusal: null })
    expect(record.body.thumb2xUrl).toBe(item.thumb2xUrl)

    // A PUT to the old URL after confirm writes to staging at most (S3; the local driver refuses
    // it): what is served does not change.
    await putBytes(signed.upload.display.url, Buffer.from(made.display.bytes).reverse(), signed.upload.display.headers)
    expect((await bytesAt(item.url)).equals(made.display.bytes)).toBe(true)
  })

  it('deleting the photo removes the phone\'s images with it', async () => {
    const id = await initPhoto()
    const signed = await sendPhoneImages(server.url, id, made)
    expect((await confirm(id)).status).toBe(200)
    const keys = (['display', 'thumb', 'thumb2x'] as const).map(name => keyOfUrl(signed.upload[name].url))
    for (const key of keys) expect(await server.probe.exists(key)).toBe(true)
    expect((await api(server.url, `/api/admin/uploads/${id}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
    for (const key of keys) expect(await server.probe.exists(key), key).toBe(false)
  })

  it('JPEG thumbnails (Safari writes no WebP) are accepted as well', async () => {
    const images = await makePhoneImages(original, 'image/jpeg')
    const id = await initPhoto()
    const signed = await sendPhoneImages(server.url, id, images)
    expect(signed.upload.thumb.headers['content-type']).toBe('image/jpeg')
    expect((await confirm(id)).status).toBe(200)
    const item = await galleryItem(id)
    expect((await bytesAt(item.thumbUrl)).equals(images.thumb.bytes)).toBe(true)
  })

  /** Sends `images` with the photo, confirms, and checks the photo was derived by the server instead. */
  async function expectFallback(images: PhoneImages, reason: string, only?: Parameters<typeof sendPhoneImages>[3]) {
    const id = await initPhoto()
    const signed = await sendPhoneImages(server.url, id, images, only)
    expect((await confirm(id)).body).toEqual({ id, status: 'approved' })
    const derived = await waitForDerived(server.url, server.cookie, id)
    expect(derived.publicImage).toEqual({ source: 'server', missing: null, phoneImagesRefusal: reason })
    const item = await galleryItem(id)
    expect(item).toMatchObject({ width: 1200, height: 1600 })
    const served = { display: await bytesAt(item.url), thumb: await bytesAt(item.thumbUrl), thumb2x: await bytesAt(item.thumb2xUrl) }
    for (const name of ['display', 'thumb', 'thumb2x'] as const) {
      expect(served[name].equals(images[name].bytes), name).toBe(false)
      const meta = await sharp(served[name]).metadata()
      expect([meta.exif, meta.icc, meta.xmp], name).toEqual([undefined, undefined, undefined])
      // The guest's bytes are gone from staging and from their own served key.
      expect(await server.probe.exists(`staging/${keyOfUrl(signed.upload[name].url)}`), name).toBe(false)
      const phoneKey = keyOfUrl(signed.upload[name].url)
      if (await server.probe.exists(phoneKey)) expect((await server.probe.read(phoneKey)).equals(images[name].bytes), name).toBe(false)
    }
    expect(await sharp(served.display).metadata()).toMatchObject({ width: 1200, height: 1600, format: 'jpeg' })
    expect(await sharp(served.thumb2x).metadata()).toMatchObject({ width: 720, height: 960, format: 'webp' })
  }

  it('a display image carrying GPS EXIF sent straight to the API is never served: the server derives', async () => {
    const located = await sharp(made.display.bytes)
      .withExif({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' } })
      .jpeg().toBuffer()
    expect((await sharp(located).metadata()).exif).toBeDefined()
    await expectFallback({ ...made, display: { bytes: located, contentType: 'image/jpeg' } }, 'metadata')
  })

  it('a PNG declared as a JPEG display image is refused (wrong-format): the server derives', async () => {
    const pngBytes = await sharp(made.display.bytes).png().toBuffer()
    await expectFallback({ ...made, display: { bytes: pngBytes.length <= 4 * 1024 * 1024 ? pngBytes : pngBytes.subarray(0, 1000), contentType: 'image/jpeg' } }, 'wrong-format')
  })

  it('a thumbnail of the wrong aspect is refused: the server derives', async () => {
    const square = await sharp(made.thumb.bytes).resize(480, 480, { fit: 'fill' }).webp().toBuffer()
    await expectFallback({ ...made, thumb: { bytes: square, contentType: 'image/webp' } }, 'aspect')
  })

  it('a display image larger than 2048 px is refused (dimensions): the server derives', async () => {
    const big = await sharp(original).rotate().resize(1800, 2400).jpeg().toBuffer()
    await expectFallback({ ...made, display: { bytes: big, contentType: 'image/jpeg' } }, 'dimensions')
  })

  it('text hidden in an extra DQT segment of the display image is refused (metadata): the server derives', async () => {
    const sof = made.display.bytes.indexOf(Buffer.from([0xFF, 0xC0]))
    const table = Buffer.concat([Buffer.from([0xFF, 0xDB, 0, 67, 3]), Buffer.from('meet me at the north exit'.padEnd(64, '.'), 'latin1')])
    const hidden = Buffer.concat([made.display.bytes.subarray(0, sof), table, made.display.bytes.subarray(sof)])
    await expectFallback({ ...made, display: { bytes: hidden, contentType: 'image/jpeg' } }, 'metadata')
  })

  it('bytes appended inside the thumbnail\'s VP8 chunk are refused (metadata): the server derives', async () => {
    const webp = made.thumb.bytes
    expect(webp.toString('latin1', 12, 16)).toBe('VP8 ')
    const size = webp.readUInt32LE(16)
    const body = Buffer.concat([webp.subarray(20, 20 + size), Buffer.from('meet me at the north exit!')])
    const head = Buffer.from('RIFF\0\0\0\0WEBPVP8 \0\0\0\0', 'latin1')
    head.writeUInt32LE(body.length, 16)
    const appended = Buffer.concat([head, body, Buffer.alloc(body.length & 1)])
    appended.writeUInt32LE(appended.length - 8, 4)
    await expectFallback({ ...made, thumb: { bytes: appended, contentType: 'image/webp' } }, 'metadata')
  })

  it('text appended to the last scan of the display image, before its EOI, is refused (metadata): the server derives', async () => {
    const jpegBytes = made.display.bytes
    const hidden = Buffer.concat([jpegBytes.subarray(0, jpegBytes.length - 2), Buffer.from('meet me at the north exit'), jpegBytes.subarray(jpegBytes.length - 2)])
    await expectFallback({ ...made, display: { bytes: hidden, contentType: 'image/jpeg' } }, 'metadata')
  })

  it('an image never sent is refused (missing): the others are deleted, the server derives', async () => {
    await expectFallback(made, 'missing', ['display', 'thumb'])
  })

  it('images over the byte caps cannot even be signed: 400, and the photo is derived as for an old client', async () => {
    const id = await initPhoto()
    const declared = { display: { contentType: 'image/jpeg', size: 4 * 1024 * 1024 + 1 }, thumb: { contentType: 'image/webp', size: 1000 }, thumb2x: { contentType: 'image/webp', size: 1000 } }
    const refused = await api(server.url, `/api/uploads/${id}/public-images`, { method: 'POST', json: declared })
    expect([refused.status, refused.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(refused.body.data.issues[0].path).toEqual(['display', 'size'])
    const pngThumb = await api(server.url, `/api/uploads/${id}/public-images`, { method: 'POST', json: { ...declared, display: { contentType: 'image/jpeg', size: 1000 }, thumb: { contentType: 'image/png', size: 1000 } } })
    expect(pngThumb.status).toBe(400)
    expect((await confirm(id)).status).toBe(200)
    expect((await waitForDerived(server.url, server.cookie, id)).publicImage).toEqual({ source: 'server', missing: null, phoneImagesRefusal: null })
  })

  it('an old client that sends no images gets the server\'s three images, the 960 px one included', async () => {
    const id = await initPhoto()
    expect((await confirm(id)).status).toBe(200)
    const derived = await waitForDerived(server.url, server.cookie, id)
    expect(derived.publicImage).toEqual({ source: 'server', missing: null, phoneImagesRefusal: null })
    const item = await galleryItem(id)
    expect(item.thumb2xUrl).toEqual(expect.any(String))
    expect(await sharp(await bytesAt(item.thumb2xUrl)).metadata()).toMatchObject({ width: 720, height: 960, format: 'webp' })
    expect(await sharp(await bytesAt(item.thumbUrl)).metadata()).toMatchObject({ width: 360, height: 480, format: 'webp' })
  })

  it('public images are only for photos not yet confirmed', async () => {
    const declaration = { display: { contentType: 'image/jpeg', size: 10 }, thumb: { contentType: 'image/webp', size: 10 }, thumb2x: { contentType: 'image/webp', size: 10 } }
    const video = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: 2048, durationSec: 2 } })
    const forVideo = await api(server.url, `/api/uploads/${video.body.id}/public-images`, { method: 'POST', json: declaration })
    expect([forVideo.status, forVideo.body.data.code]).toEqual([409, 'NOT_ELIGIBLE'])
    const id = await initPhoto()
    expect((await confirm(id)).status).toBe(200)
    const late = await api(server.url, `/api/uploads/${id}/public-images`, { method: 'POST', json: declaration })
    expect([late.status, late.body.data.code]).toEqual([409, 'ALREADY_CONFIRMED'])
    expect((await api(server.url, '/api/uploads/AAAAAAAAAAAAAAAAAAAA/public-images', { method: 'POST', json: declaration })).status).toBe(404)
  })

  it('a HEIC the server cannot decode is listed at once with verified phone images; without them the admin is told why', async () => {
    // A real HEIC (64 × 48): the prebuilt libvips reads its size from the header but cannot decode it.
    const heic = readFileSync(resolve(import.meta.dirname, '../fixtures/small-64x48.heic'))
    const sendHeic = async () => {
      const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'IMG.HEIC', contentType: 'image/heic', size: heic.length } })
      expect((await putBytes(init.body.upload.url, heic, init.body.upload.headers)).status).toBe(200)
      return init.body.id as string
    }
    // What Safari would draw from it: any 64 × 48 picture, the check reads no pixels.
    const images = await makePhoneImages(await jpeg(64, 48))
    const withImages = await sendHeic()
    await sendPhoneImages(server.url, withImages, images)
    expect((await confirm(withImages)).status).toBe(200)
    const listed = await galleryItem(withImages)
    expect(listed).toMatchObject({ width: 64, height: 48 })
    expect((await bytesAt(listed.url)).equals(images.display.bytes)).toBe(true)

    const alone = await sendHeic()
    expect((await confirm(alone)).status).toBe(200)
    const deadline = Date.now() + 20_000
    let record = await adminRecord(server.url, server.cookie, alone)
    while (record.body.publicImage.missing === 'waiting' && Date.now() < deadline) {
      await new Promise(done => setTimeout(done, 100))
      record = await adminRecord(server.url, server.cookie, alone)
    }
    expect(record.body.publicImage).toEqual({ source: null, missing: 'undecodable', phoneImagesRefusal: null })
    expect(await galleryItem(alone)).toBeUndefined()
  })
})
