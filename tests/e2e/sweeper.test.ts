import { createServer, type Server } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { startServer } from '../support/server'
import { jpeg, mp4 } from '../support/fixtures'
import { keyOfUrl, putBytes, sendParts, stagedKeyOfUrl, uploadFile } from '../support/uploads'

describe.each(['local', 's3'] as const)('sweeper (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', env: { UPLOAD_STALE_AFTER_SECONDS: '6', SWEEP_INTERVAL_SECONDS: '1' } })

  it('removes records never confirmed past the limit, with their bytes and open multipart uploads; keeps confirmed ones', async () => {
    const photo = await jpeg()
    const stale = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: photo.length } })).body
    expect((await putBytes(stale.upload.url, photo, stale.upload.headers)).status).toBe(200)
    const bytes = mp4(55 * 1024 * 1024)
    const parts = (await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: bytes.length, durationSec: 5 } })).body
    await sendParts(parts, bytes, [1])
    const kept = await uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })
    expect(await server.probe.exists(stagedKeyOfUrl(stale.upload.url))).toBe(true)
    expect(await server.probe.openMultipartUploads()).toBe(1)

    let gone = false
    for (let i = 0; i < 150 && !gone; i++) {
      await new Promise(resolve => setTimeout(resolve, 100))
      // refresh changes nothing, so polling with it cannot rescue the record.
      gone = (await api(server.url, `/api/uploads/${stale.id}/refresh`, { method: 'POST' })).status === 404
        && (await api(server.url, `/api/uploads/${parts.id}/refresh`, { method: 'POST' })).status === 404
    }
    expect(gone).toBe(true)
    expect(await server.probe.exists(stagedKeyOfUrl(stale.upload.url))).toBe(false)
    expect(await server.probe.exists(keyOfUrl(stale.upload.url))).toBe(false)
    expect(await server.probe.openMultipartUploads()).toBe(0)
    expect(await server.probe.exists(keyOfUrl(kept.init.upload.url))).toBe(true)
    expect((await api(server.url, `/api/uploads/${kept.init.id}/confirm`, { method: 'POST' })).body.status).toBe('approved')
  })
})

describe('bot challenge (Turnstile)', () => {
  // Cloudflare's siteverify cannot be reached from here: a local stand-in answers like it does.
  let verifier: Server
  const seen: string[] = []
  afterAll(() => verifier?.close())

  it('a sent token must pass; a missing token is accepted; a failing one is 403 CHALLENGE_FAILED with no record', async () => {
    verifier = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const params = new URLSearchParams(body)
        seen.push(`${params.get('secret')}:${params.get('response')}`)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ success: params.get('response') === 'good-token' }))
      })
    })
    await new Promise<void>(resolve => verifier.listen(0, '127.0.0.1', resolve))
    const { port } = verifier.address() as { port: number }
    const server = await startServer({ TURNSTILE_SECRET_KEY: 'ts-secret', TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify` })
    try {
      const init = (challengeToken?: string) => api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 10, challengeToken } })
      expect((await init('good-token')).status).toBe(201)
      expect((await init()).status).toBe(201)
      const bad = await init('forged')
      expect(bad.status).toBe(403)
      expect(bad.body.data).toEqual({ code: 'CHALLENGE_FAILED' })
      expect(seen).toEqual(['ts-secret:good-token', 'ts-secret:forged'])
    }
    finally {
      await server.stop()
    }
  })
})
