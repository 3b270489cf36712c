import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { jpeg } from '../support/fixtures'
import { startServer, type TestServer } from '../support/server'
import { putBytes } from '../support/uploads'

/**
 * A photo's derivation waits while an upload step is being answered, for at most 2 s, and then
 * runs even though the step is still going on. The step held open here is a PUT whose body comes
 * slowly, which only the local driver receives itself (on S3 the bytes never reach the server):
 * the queue is the same for both drivers, so one is enough. Bounds only, by causality: the photo
 * cannot be derived before the confirm was sent plus 2 s, whatever the machine's load.
 */
describe('derivations yield to upload steps being answered (local driver)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ SWEEP_INTERVAL_SECONDS: '0', RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const init = async (bytes: Buffer) => {
    const answer = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'p.jpg', contentType: 'image/jpeg', size: bytes.length, author: 'Ana' } })
    expect(answer.status).toBe(201)
    return answer.body
  }
  const backlog = async () => {
    const health = await api(server.url, '/api/health')
    expect(health.status).toBe(200)
    return health.body.derivationBacklog as number
  }

  it('a photo confirmed during a slow PUT is derived 2 s after its confirm at the earliest, and before the PUT ends', async () => {
    const held = await jpeg(640, 480, { r: 200, g: 40, b: 40 })
    const photo = await jpeg(64, 48, { r: 20, g: 160, b: 60 })
    const slow = await init(held)
    const quick = await init(photo)
    expect((await putBytes(quick.upload.url, photo, quick.upload.headers)).status).toBe(200)

    // Half of the held photo's bytes, the rest only once the derivation has been seen done.
    let putEnded = false
    let finishPut = () => {}
    const putStatus = new Promise<number>((resolve, reject) => {
      const put = request(slow.upload.url, { method: 'PUT', headers: { ...slow.upload.headers, 'content-length': String(held.length) } }, (response) => {
        response.resume()
        response.on('end', () => {
          putEnded = true
          resolve(response.statusCode!)
        })
      })
      put.on('error', reject)
      put.write(held.subarray(0, held.length / 2))
      finishPut = () => put.end(held.subarray(held.length / 2))
    })
    // The PUT's handler is running once the server has started reading its body: give it a moment.
    await new Promise(resolve => setTimeout(resolve, 500))

    const confirmSent = performance.now()
    const confirm = await api(server.url, `/api/uploads/${quick.id}/confirm`, { method: 'POST' })
    expect(confirm.status).toBe(200)
    let derivedSeenAfterMs: number | null = null
    while (performance.now() - confirmSent < 60_000) {
      if (await backlog() === 0) {
        derivedSeenAfterMs = performance.now() - confirmSent
        break
      }
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    expect(derivedSeenAfterMs).not.toBeNull()
    expect(derivedSeenAfterMs!).toBeGreaterThanOrEqual(2000)
    // Bounded: derived while the PUT was still being received.
    expect(putEnded).toBe(false)

    finishPut()
    expect(await putStatus).toBe(200)
    const confirmHeld = await api(server.url, `/api/uploads/${slow.id}/confirm`, { method: 'POST' })
    expect(confirmHeld.status).toBe(200)
  })
})
