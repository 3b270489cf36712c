import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { jpegWithGps } from '../support/fixtures'
import { api } from '../support/http'
import { seedPhoto, seedVideo } from '../support/seed'
import { unzip } from '../support/zip'

// The same suite against both drivers: the local disk and a real S3-compatible server (s3rver).
describe.each(['local', 's3'] as const)('guest downloads (%s driver)', (driver) => {
  // Behind a trusted proxy, so that the ZIP's limit is counted for an address of the test's own.
  const server = useTestServer({ s3: driver === 's3', admin: true, env: { TRUST_PROXY: 'x-forwarded-for' } })
  const setEvent = (patch: Record<string, unknown>) =>
    api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })

  it('downloads are off by default: no downloadUrl, 403 DOWNLOADS_DISABLED for a file and the ZIP', async () => {
    const photo = await seedPhoto(server.url)
    const items = (await api(server.url, '/api/gallery?limit=100')).body.items
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) expect(item).not.toHaveProperty('downloadUrl')
    expect((await api(server.url, '/api/gallery/download.zip')).body.data).toEqual({ code: 'DOWNLOADS_DISABLED' })
    const one = await api(server.url, `/api/gallery/download/${photo.id}`)
    expect([one.status, one.body.data.code]).toEqual([403, 'DOWNLOADS_DISABLED'])
  })

  it('with downloads on, each item carries downloadUrl: the display image (no metadata) or the video, as an attachment named for the couple and the author', async () => {
    await setEvent({ guestDownloads: true, coupleNames: 'Ana & João' })
    const located = await seedPhoto(server.url, { author: 'Zé Maria', bytes: await jpegWithGps() })
    const video = await seedVideo(server.url, { author: 'Pedro' })
    const items = (await api(server.url, '/api/gallery?limit=100')).body.items
    const photoItem = items.find((item: any) => item.id === located.id)
    const videoItem = items.find((item: any) => item.id === video.id)
    expect(photoItem.downloadUrl).toBe(`${server.url}/api/gallery/download/${located.id}`)

    const download = await fetch(photoItem.downloadUrl)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="ana-joao_ze-maria_${located.id}.jpg"`)
    expect(download.headers.get('content-type')).toBe('image/jpeg')
    const bytes = Buffer.from(await download.arrayBuffer())
    expect(bytes.equals(Buffer.from(await (await fetch(photoItem.url)).arrayBuffer()))).toBe(true)
    expect(bytes.equals(located.bytes)).toBe(false)
    expect(bytes.includes(Buffer.from('Exif'))).toBe(false)
    expect(bytes.includes(Buffer.from('TestPhone'))).toBe(false)

    const clip = await fetch(videoItem.downloadUrl)
    expect(clip.headers.get('content-disposition')).toBe(`attachment; filename="ana-joao_pedro_${video.id}.mp4"`)
    expect(Buffer.from(await clip.arrayBuffer()).equals(Buffer.from(await (await fetch(videoItem.url)).arrayBuffer()))).toBe(true)

    expect((await api(server.url, '/api/gallery/download/unknown-id')).status).toBe(404)
    // The gallery's rules hold for downloads too.
    await setEvent({ galleryMode: 'upload-only' })
    expect((await api(server.url, `/api/gallery/download/${located.id}`)).body.data.code).toBe('GALLERY_CLOSED')
    await setEvent({ galleryMode: 'live' })
  })

  it('the ZIP streams every approved item\'s public file with its Content-Length, photos without metadata, and is limited per client', async () => {
    const client = { 'x-forwarded-for': '198.51.100.4' }
    const response = await fetch(`${server.url}/api/gallery/download.zip`, { headers: client })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="ana-joao_fotos.zip"')
    const archive = Buffer.from(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(archive.length)
    const entries = await unzip(archive)
    const gallery = (await api(server.url, '/api/gallery?limit=100')).body.items
    expect(entries).toHaveLength(gallery.length)
    for (const item of gallery) {
      const extension = item.kind === 'photo' ? 'jpg' : 'mp4'
      expect(entries.filter(entry => entry.name.endsWith(`_${item.id}.${extension}`)), item.id).toHaveLength(1)
    }
    for (const entry of entries) {
      expect(entry.compressionMethod).toBe(0)
      if (entry.name.endsWith('.jpg')) {
        expect(entry.bytes.subarray(0, 2).toString('hex')).toBe('ffd8')
        expect(entry.bytes.includes(Buffer.from('Exif'))).toBe(false)
      }
    }
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}/api/gallery/download.zip`, { headers: client })).status).toBe(200)
    const limited = await api(server.url, '/api/gallery/download.zip', { headers: client })
    expect([limited.status, limited.body.data.code]).toEqual([429, 'RATE_LIMITED'])

    await setEvent({ galleryPin: '1234' })
    expect((await api(server.url, '/api/gallery/download.zip', { headers: { 'x-forwarded-for': '198.51.100.5' } })).body.data.code).toBe('GALLERY_PIN_REQUIRED')
    await setEvent({ galleryPin: null, guestDownloads: false })
  })
})
