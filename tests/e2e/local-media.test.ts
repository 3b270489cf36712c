import { describe, expect, it } from 'vitest'
import exifReader from 'exif-reader'
import sharp from 'sharp'
import { useTestServer } from '../support/suite/test-server'
import { api, login } from '../support/http'
import { startServer } from '../support/server'
import { jpeg, jpegWithGps, mp4 } from '../support/fixtures'
import { keyOfUrl, putBytes, uploadFile } from '../support/uploads'

describe('local storage driver', () => {
  const server = useTestServer()

  const init = (body: Record<string, unknown>) =>
    api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', ...body } })

  it('refuses a tampered signature, another content type, a longer body, and a key with ..', async () => {
    const bytes = await jpeg()
    const created = (await init({ contentType: 'image/jpeg', size: bytes.length })).body
    const url = new URL(created.upload.url)

    const tampered = new URL(url)
    tampered.searchParams.set('len', String(bytes.length + 100))
    const forged = await putBytes(tampered.href, Buffer.concat([bytes, Buffer.alloc(100)]), created.upload.headers)
    expect(forged.status).toBe(403)
    expect((await forged.json()).data.code).toBe('INVALID_SIGNATURE')

    const otherKey = new URL(url)
    otherKey.pathname = otherKey.pathname.replace(/orig\/[^.]+/, 'orig/someone-elses-key')
    expect((await putBytes(otherKey.href, bytes, created.upload.headers)).status).toBe(403)

    expect((await putBytes(url.href, bytes, { 'content-type': 'text/html' })).status).toBe(403)

    const longer = await putBytes(url.href, Buffer.concat([bytes, Buffer.from('extra')]), created.upload.headers)
    expect(longer.status).toBe(413)

    for (const path of ['/media/orig/..%2F..%2Fevent.db', '/media/%2e%2e/%2e%2e/event.db', '/media/orig/../../event.db', '/media/.multipart/x']) {
      const response = await fetch(`${server.url}${path}${url.search}`, { method: 'PUT', body: 'x' })
      expect([403, 404], path).toContain(response.status)
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404)
    }

    // Nothing was stored by any refused request; the genuine one still works.
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(409)
    expect((await putBytes(url.href, bytes, created.upload.headers)).status).toBe(200)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).body.status).toBe('approved')
  })

  it('serves videos with Range support (206), nosniff and long caching; photo originals only when signed', async () => {
    const bytes = mp4(300_000)
    const { init: created } = await uploadFile(server.url, bytes, { contentType: 'video/mp4', size: bytes.length, durationSec: 4 })
    // Served from the key confirm moved it to, not the staging key the PUT wrote.
    const path = `/media/${keyOfUrl(created.upload.url)}`

    const whole = await fetch(`${server.url}${path}`)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('video/mp4')
    expect(whole.headers.get('content-length')).toBe(String(bytes.length))
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff')
    expect(whole.headers.get('cache-control')).toContain('max-age=31536000')
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)

    const ranged = await fetch(`${server.url}${path}`, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`)
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true)

    const photo = await jpegWithGps()
    const { init: photoInit } = await uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })
    const photoPath = `/media/${keyOfUrl(photoInit.upload.url)}`
    expect((await fetch(`${server.url}${photoPath}`)).status).toBe(403)
  })

  it('a signed URL with a query parameter added, repeated or moved is refused 403 INVALID_SIGNATURE; the URL as signed works', async () => {
    const photo = await jpegWithGps()
    const { init: created } = await uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })
    const signed = (await api(server.url, `/api/admin/uploads/${created.id}`, { method: 'PATCH', json: {}, cookie: await login(server.url) })).body.originalUrl as string
    expect(signed).toMatch(/\?exp=\d+&sig=[\w-]+$/)
    const url = new URL(signed)
    const exp = url.searchParams.get('exp')!
    const sig = url.searchParams.get('sig')!
    const variants = [
      `${signed}&x=1`,
      `${url.origin}${url.pathname}?x=1&exp=${exp}&sig=${sig}`,
      `${url.origin}${url.pathname}?sig=${sig}&exp=${exp}`,
      `${url.origin}${url.pathname}?exp=${exp}&exp=${exp}&sig=${sig}`,
      `${url.origin}${url.pathname}?exp=${exp}&sig=${sig}&sig=${sig}`,
      `${url.origin}${url.pathname}?exp=${exp}&len=&sig=${sig}`,
    ]
    for (const variant of variants) {
      const response = await fetch(variant)
      expect(response.status, variant).toBe(403)
      expect((await response.json()).data.code, variant).toBe('INVALID_SIGNATURE')
    }
    const genuine = await fetch(signed)
    expect(genuine.status).toBe(200)
    expect(Buffer.from(await genuine.arrayBuffer()).equals(photo)).toBe(true)

    // A PUT URL likewise: an extra parameter is refused before any byte is written.
    const fresh = await init({ contentType: 'image/jpeg', size: photo.length })
    const put = await putBytes(`${fresh.body.upload.url}&x=1`, photo, fresh.body.upload.headers)
    expect(put.status).toBe(403)
    expect((await put.json()).data.code).toBe('INVALID_SIGNATURE')
  })

  it('an expired URL is refused; refresh gives new URLs for the missing parts only, and the upload resumes', async () => {
    // Ten seconds: three 10 MiB parts took longer than four on this 2-core machine under a whole
    // test run (the URLs expired before they were used), and ten is still short enough to wait out.
    const short = await startServer({ UPLOAD_URL_TTL_SECONDS: '10' })
    try {
      const MiB = 1024 * 1024
      const bytes = mp4(52 * MiB)
      const created = (await api(short.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 12 } })).body
      expect(created.upload.parts).toHaveLength(6)
      const send = (part: { partNumber: number, url: string, size: number }) =>
        putBytes(part.url, bytes.subarray((part.partNumber - 1) * 10 * MiB, (part.partNumber - 1) * 10 * MiB + part.size))
      for (const part of created.upload.parts.slice(0, 3)) expect((await send(part)).status).toBe(200)

      // Past the signed expiry (whole seconds, so a second more).
      await new Promise(resolve => setTimeout(resolve, Math.max(0, Date.parse(created.expiresAt) + 1100 - Date.now())))
      const expired = await send(created.upload.parts[3])
      expect(expired.status).toBe(403)
      expect((await expired.json()).data.code).toBe('URL_EXPIRED')

      const refreshed = await api(short.url, `/api/uploads/${created.id}/refresh`, { method: 'POST', json: { partNumbers: [4, 5, 6] } })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.upload.type).toBe('multipart')
      expect(refreshed.body.upload.parts.map((p: any) => p.partNumber)).toEqual([4, 5, 6])
      expect(Date.parse(refreshed.body.expiresAt)).toBeGreaterThan(Date.now())
      for (const part of refreshed.body.upload.parts) expect((await send(part)).status).toBe(200)

      const confirm = await api(short.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
      expect(confirm.body).toEqual({ id: created.id, status: 'approved' })
      const stored = await fetch(`${short.url}${new URL(created.upload.parts[0].url).pathname}`)
      expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true)
      expect((await api(short.url, `/api/uploads/${created.id}/refresh`, { method: 'POST', json: {} })).body.data.code).toBe('ALREADY_CONFIRMED')

      // A single-PUT upload refreshes too; a part number beyond the upload is a bad request.
      const single = (await api(short.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 100 } })).body
      const again = await api(short.url, `/api/uploads/${single.id}/refresh`, { method: 'POST' })
      expect(again.body.upload).toMatchObject({ type: 'single', method: 'PUT', headers: { 'content-type': 'image/jpeg' } })
      const multi = (await api(short.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: 60 * MiB, durationSec: 3 } })).body
      expect((await api(short.url, `/api/uploads/${multi.id}/refresh`, { method: 'POST', json: { partNumbers: [7] } })).status).toBe(400)
    }
    finally {
      await short.stop()
    }
  })
})

describe('derived images', () => {
  const server = useTestServer()

  it('the display image of a GPS-tagged JPEG has no metadata at all and is upright', async () => {
    const original = await jpegWithGps(64, 32)
    // The fixture really carries a position (read back with an EXIF parser), so its absence later means something.
    expect(exifReader((await sharp(original).metadata()).exif!).GPSInfo).toMatchObject({ GPSLatitude: [23, 33, 0], GPSLongitudeRef: 'W' })
    const { confirm, init } = await uploadFile(server.url, original, { contentType: 'image/jpeg', size: original.length })
    expect(confirm.body.status).toBe('approved')

    // Derivation runs off the request path: wait for the event page to show derived URLs.
    const { existsSync, readdirSync } = await import('node:fs')
    let derived: string[] = []
    // Three images: the display image and the 480 and 960 px thumbnails.
    for (let i = 0; i < 100 && derived.length < 3; i++) {
      const dir = `${server.mediaDir}/media`
      derived = existsSync(dir) ? readdirSync(dir).filter(name => name.startsWith(init.id)) : []
      if (derived.length < 3) await new Promise(resolve => setTimeout(resolve, 100))
    }
    expect(derived).toHaveLength(3)
    const display = derived.find(name => name.endsWith('-display.jpg'))!
    const thumb = derived.find(name => name.endsWith('-thumb.webp'))!
    expect(derived.find(name => name.endsWith('-thumb2x.webp'))).toBeDefined()
    const displayBytes = Buffer.from(await (await fetch(`${server.url}/media/media/${display}`)).arrayBuffer())
    const meta = await sharp(displayBytes).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.exif).toBeUndefined()
    expect(meta.icc).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    // Orientation 6 on a 64×32 sensor image: shown upright it is 32 wide and 64 tall.
    expect([meta.width, meta.height]).toEqual([32, 64])
    expect(displayBytes.includes(Buffer.from('Exif\0'))).toBe(false)
    const thumbMeta = await sharp(Buffer.from(await (await fetch(`${server.url}/media/media/${thumb}`)).arrayBuffer())).metadata()
    expect(thumbMeta.format).toBe('webp')
    expect(thumbMeta.exif).toBeUndefined()
  })
})
