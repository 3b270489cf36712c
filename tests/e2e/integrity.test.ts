import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { jpeg, mp4 } from '../support/fixtures'
import { adminRecord } from '../support/seed'
import { keyOfUrl, putBytes, stagedKeyOfUrl, uploadFile } from '../support/uploads'

/** The same length and type, other bytes: what an attacker holding a used URL would send. */
function swapped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes)
  for (let i = copy.length - 64; i < copy.length - 8; i++) copy[i] = copy[i]! ^ 0x5a
  return copy
}

async function download(url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  const response = await fetch(url, { headers })
  expect(response.status, url).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

// Once confirm has verified an upload's bytes, no URL the service signed may change them.
describe.each(['local', 's3'] as const)('upload integrity (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true })
  const init = (body: Record<string, unknown>) =>
    api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', author: 'Ana', message: '', ...body } })

  it('a photo\'s signed PUT sent again after confirm changes neither the original nor the ZIP export', async () => {
    const first = await jpeg(64, 64, { r: 10, g: 200, b: 30 })
    const second = swapped(first)
    const { init: created, confirm } = await uploadFile(server.url, first, { contentType: 'image/jpeg', size: first.length })
    expect(confirm.status).toBe(200)

    const again = await putBytes(created.upload.url, second, created.upload.headers)
    if (driver === 'local') {
      expect(again.status).toBe(409)
      expect((await again.json()).data.code).toBe('ALREADY_CONFIRMED')
    }
    else {
      // A presigned URL cannot be revoked: it writes to staging, which nothing serves.
      expect(again.status).toBe(200)
    }
    expect((await server.probe.read(keyOfUrl(created.upload.url))).equals(first)).toBe(true)
    expect(stagedKeyOfUrl(created.upload.url)).toMatch(/^staging\//)
    const record = await adminRecord(server.url, server.cookie, created.id)
    expect((await download(record.body.originalUrl)).equals(first)).toBe(true)
    const archive = await fetch(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie } })
    expect(archive.status).toBe(200)
    const zip = Buffer.from(await archive.arrayBuffer())
    expect(zip.includes(first)).toBe(true)
    expect(zip.includes(second)).toBe(false)
  })

  it('a video\'s and its poster\'s signed PUTs sent again after confirm change nothing the gallery serves', async () => {
    const video = mp4(8192)
    const poster = await jpeg(64, 36)
    const created = (await init({ fileName: 'v.mp4', contentType: 'video/mp4', size: video.length, durationSec: 2 })).body
    const signed = (await api(server.url, `/api/uploads/${created.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: poster.length } })).body
    expect((await putBytes(signed.upload.url, poster, signed.upload.headers)).status).toBe(200)
    expect((await putBytes(created.upload.url, video, created.upload.headers)).status).toBe(200)
    expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).body.status).toBe('approved')

    const videoAgain = await putBytes(created.upload.url, swapped(video), created.upload.headers)
    const posterAgain = await putBytes(signed.upload.url, swapped(poster), signed.upload.headers)
    expect([videoAgain.status, posterAgain.status]).toEqual(driver === 'local' ? [409, 409] : [200, 200])

    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: any) => i.id === created.id)
    expect((await download(item.url)).equals(video)).toBe(true)
    expect((await download(item.thumbUrl)).equals(poster)).toBe(true)
  })

  it('confirm racing abort on one id: exactly one wins, never a 500, and a 200 confirm keeps the bytes', async () => {
    const bytes = await jpeg(32, 32)
    const outcomes = new Set<string>()
    for (let round = 0; round < 20; round++) {
      const created = (await init({ contentType: 'image/jpeg', size: bytes.length })).body
      expect((await putBytes(created.upload.url, bytes, created.upload.headers)).status).toBe(200)
      const confirmIt = () => api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })
      const abortIt = () => api(server.url, `/api/uploads/${created.id}/abort`, { method: 'POST' })
      // Either one sent first, in turn, so that both ways of winning happen.
      const [confirm, abort] = round % 2
        ? await Promise.all([confirmIt(), abortIt()])
        : await Promise.all([abortIt(), confirmIt()]).then(([a, c]) => [c, a] as const)
      const outcome = `${confirm.status} ${confirm.body?.data?.code ?? ''} / ${abort.status} ${abort.body?.data?.code ?? ''}`.replace(/ +/g, ' ').trim()
      outcomes.add(outcome)
      expect(['200 / 409 ALREADY_CONFIRMED', '404 NOT_FOUND / 200'], outcome).toContain(outcome)
      const key = keyOfUrl(created.upload.url)
      if (confirm.status === 200) {
        expect((await server.probe.read(key)).equals(bytes)).toBe(true)
        expect((await api(server.url, `/api/uploads/${created.id}/confirm`, { method: 'POST' })).status).toBe(200)
      }
      else {
        expect(await server.probe.exists(key)).toBe(false)
        expect(await server.probe.exists(stagedKeyOfUrl(created.upload.url))).toBe(false)
      }
    }
    console.info(`[confirm ‖ abort, ${driver}] outcomes:`, [...outcomes].join('; '))
  }, 60_000)

  it('a malformed escape in a media path is 404 NOT_FOUND, not 500', async () => {
    for (const path of ['/media/%ff', '/media/orig/%E0%A4%A', '/media/staging/%zz.jpg']) {
      const response = await api(server.url, path)
      expect([response.status, response.body?.data?.code], path).toEqual([404, 'NOT_FOUND'])
    }
  })
})

describe.each(['local', 's3'] as const)('staging sweep (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', env: { UPLOAD_STALE_AFTER_SECONDS: '6', SWEEP_INTERVAL_SECONDS: '1' } })

  it('a PUT after abort is refused, or lands in staging and is swept; a confirmed upload\'s bytes stay', async () => {
    const bytes = await jpeg(40, 40)
    const created = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })).body
    expect((await api(server.url, `/api/uploads/${created.id}/abort`, { method: 'POST' })).status).toBe(200)
    const staged = stagedKeyOfUrl(created.upload.url)
    const late = await putBytes(created.upload.url, bytes, created.upload.headers)
    if (driver === 'local') {
      expect(late.status).toBe(404)
      expect((await late.json()).data.code).toBe('NOT_FOUND')
      // A PUT that passed the check before the abort still ends in staging: the sweeper's to remove.
      const path = join(server.mediaDir, staged)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, bytes)
      utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    }
    else {
      expect(late.status).toBe(200)
    }
    const kept = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length })
    expect(kept.confirm.status).toBe(200)
    expect(await server.probe.exists(staged)).toBe(true)

    let gone = false
    for (let i = 0; i < 100 && !gone; i++) {
      await new Promise(resolve => setTimeout(resolve, 100))
      gone = !(await server.probe.exists(staged))
    }
    expect(gone).toBe(true)
    expect((await server.probe.read(keyOfUrl(kept.init.upload.url))).equals(bytes)).toBe(true)
  }, 30_000)
})

describe('local media HEAD', () => {
  const server = useTestServer()

  it('answers like GET without a body, ranges included', async () => {
    const video = mp4(5000)
    const { init: created } = await uploadFile(server.url, video, { contentType: 'video/mp4', size: video.length, durationSec: 2 })
    const url = `${server.url}/media/${keyOfUrl(created.upload.url)}`
    const whole = await fetch(url, { method: 'HEAD' })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe(String(video.length))
    expect(whole.headers.get('content-type')).toBe('video/mp4')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect((await whole.arrayBuffer()).byteLength).toBe(0)
    const part = await fetch(url, { method: 'HEAD', headers: { range: 'bytes=100-199' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${video.length}`)
    expect(part.headers.get('content-length')).toBe('100')
    expect((await fetch(`${server.url}/media/${stagedKeyOfUrl(created.upload.url)}`, { method: 'HEAD' })).status).toBe(404)
    expect((await fetch(`${server.url}/media/media/nothing-here.mp4`, { method: 'HEAD' })).status).toBe(404)
  })
})

describe('storage health (s3 driver)', () => {
  const server = useTestServer({ s3: true })
  const init = () => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 1000 } })

  it('a failed health check or confirm marks storage down at once: the next init is 503, and up again after a success', async () => {
    expect((await init()).status).toBe(201)
    await server.s3.stop()
    expect((await api(server.url, '/api/health')).status).toBe(503)
    const refused = await init()
    expect([refused.status, refused.body.data.code]).toEqual([503, 'STORAGE_UNAVAILABLE'])
    await server.restartS3()
    expect((await api(server.url, '/api/health')).status).toBe(200)
    const created = await init()
    expect(created.status).toBe(201)

    await server.s3.stop()
    const confirm = await api(server.url, `/api/uploads/${created.body.id}/confirm`, { method: 'POST' })
    expect([confirm.status, confirm.body.data.code]).toEqual([503, 'STORAGE_UNAVAILABLE'])
    expect((await init()).status).toBe(503)
    await server.restartS3()
  }, 60_000)
})
