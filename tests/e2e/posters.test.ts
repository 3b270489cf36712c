import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { jpeg, jpegWithGps, mp4 } from '../support/fixtures'
import { keyOfUrl, putBytes, stagedKeyOfUrl } from '../support/uploads'

// A poster is public (the video's gallery tile): the same structural check as the phone's images.
describe.each(['local', 's3'] as const)('video posters are checked before they are public (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })

  /** A video with `poster` sent before its confirm; answers the gallery item and the poster's signed URL. */
  async function sendVideoWithPoster(poster: Buffer) {
    const video = mp4(4096)
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: video.length, durationSec: 2 } })).body
    const signed = (await api(server.url, `/api/uploads/${created.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: poster.length } })).body
    expect((await putBytes(signed.upload.url, poster, signed.upload.headers)).status).toBe(200)
    expect((await putBytes(created.upload.url, video, created.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
    expect(confirm.status).toBe(200)
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: any) => i.id === created.id)
    return { item, url: signed.upload.url as string }
  }

  async function expectRefused(poster: Buffer) {
    const { item, url } = await sendVideoWithPoster(poster)
    // The gallery draws its placeholder, as for a video sent without a poster.
    expect(item.kind).toBe('video')
    expect(item.thumbUrl).toBeNull()
    expect(await server.probe.exists(keyOfUrl(url))).toBe(false)
    expect(await server.probe.exists(stagedKeyOfUrl(url))).toBe(false)
  }

  it('a plain JPEG frame is the gallery thumbnail, byte for byte', async () => {
    const poster = await jpeg(640, 360)
    const { item, url } = await sendVideoWithPoster(poster)
    expect(item.thumbUrl).toMatch(/-poster\.jpg$/)
    expect((await server.probe.read(keyOfUrl(url))).equals(poster)).toBe(true)
  })

  it('a poster carrying EXIF GPS is refused and never served', async () => {
    await expectRefused(await jpegWithGps(64, 36))
  })

  it('JPEG magic followed by HTML is refused', async () => {
    await expectRefused(Buffer.concat([Buffer.from([0xFF, 0xD8, 0xFF]), Buffer.from('<!doctype html><script>alert(1)</script>')]))
  })

  it('a JPEG with text after its end, or with a comment segment, is refused', async () => {
    const plain = await jpeg(64, 36)
    await expectRefused(Buffer.concat([plain, Buffer.from('<script>alert(1)</script>')]))
    await expectRefused(Buffer.concat([plain.subarray(0, 2), Buffer.from([0xFF, 0xFE, 0, 7]), Buffer.from('hello'), plain.subarray(2)]))
  })

  it('text hidden in a poster\'s tables or at the end of its scan is refused', async () => {
    const plain = await jpeg(64, 36)
    const sof = plain.indexOf(Buffer.from([0xFF, 0xC0]))
    const table = Buffer.concat([Buffer.from([0xFF, 0xDB, 0, 67, 3]), Buffer.from('meet me at the north exit'.padEnd(64, '.'), 'latin1')])
    await expectRefused(Buffer.concat([plain.subarray(0, sof), table, plain.subarray(sof)]))
    await expectRefused(Buffer.concat([plain.subarray(0, plain.length - 2), Buffer.from('meet me at the north exit'), plain.subarray(plain.length - 2)]))
  })

  it('a poster larger than any frame the page draws is refused', async () => {
    await expectRefused(await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 9, g: 9, b: 9 } } }).jpeg().toBuffer())
  })
})
