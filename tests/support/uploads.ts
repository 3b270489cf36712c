import assert from 'node:assert/strict'
import { Agent, request } from 'node:http'
import { api } from './http'

export interface InitBody {
  fileName?: string
  contentType: string
  size: number
  durationSec?: number
  author?: string
  message?: string
  /** SHA-256 of the bytes, hex (the duplicate check). */
  hash?: string
  /** The moment the guest chose, and when the phone says it was taken (docs/api.md, "Moments"). */
  momentId?: string
  takenAt?: string
  /** The couple's challenge it answers. */
  challengeId?: string
}

/** The storage key a presigned URL writes to (local: /media/<key>; S3 path style: /<bucket>/<key>): `staging/…` for a single PUT. */
export function stagedKeyOfUrl(url: string): string {
  const path = decodeURIComponent(new URL(url).pathname)
  return path.replace(/^\/media\//, '').replace(/^\/[^/]+\//, '')
}

/** The key a presigned URL's bytes are served from once confirmed (confirm moves them out of `staging/`). */
export function keyOfUrl(url: string): string {
  return stagedKeyOfUrl(url).replace(/^staging\//, '')
}

/**
 * A PUT as a browser sends one, on a connection of its own (see http.ts fetchFresh: a reused idle
 * socket may have been closed by the server) that still says keep-alive: a server refusing the
 * PUT before reading its body (an expired URL) then reads the rest and answers, where after a
 * `Connection: close` it would cut the socket under the upload (EPIPE) before the client saw why.
 */
export function putBytes(url: string, bytes: Buffer, headers: Record<string, string> = {}): Promise<Response> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  return new Promise<Response>((resolve, reject) => {
    // The headers fetch (and a page's PUT) sends: with `sec-fetch-mode: cors` a refusal answers JSON.
    const sent = { 'accept': '*/*', 'sec-fetch-mode': 'cors', ...headers, 'content-length': String(bytes.length) }
    const put = request(url, { method: 'PUT', agent, headers: sent }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        agent.destroy()
        const answer = new Headers()
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value)
        }
        const status = response.statusCode!
        resolve(new Response([204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: answer }))
      })
    })
    put.on('error', (error) => {
      agent.destroy()
      reject(error)
    })
    put.end(bytes)
  })
}

/** Sends every part (or only `only`) of a multipart upload exactly as a browser would. */
export async function sendParts(init: any, bytes: Buffer, only?: number[]) {
  for (const part of init.upload.parts) {
    if (only && !only.includes(part.partNumber)) continue
    const start = (part.partNumber - 1) * init.upload.partSize
    const response = await putBytes(part.url, bytes.subarray(start, start + part.size))
    assert.equal(response.status, 200, `part ${part.partNumber} answered ${response.status}`)
  }
}

/** init → PUT (single or parts) → [a video's poster frame] → confirm; returns the confirm answer and the init answer. */
export async function uploadFile(base: string, bytes: Buffer, body: InitBody, options: { poster?: Buffer, displayCopy?: Buffer } = {}) {
  const init = await api(base, '/api/uploads/init', {
    method: 'POST',
    json: { fileName: 'file.bin', author: 'Maria', message: 'Parabéns!', ...body, size: body.size ?? bytes.length },
  })
  assert.equal(init.status, 201, `init answered ${init.status}: ${JSON.stringify(init.body)}`)
  if (init.body.upload.type === 'single') {
    const response = await putBytes(init.body.upload.url, bytes, init.body.upload.headers)
    assert.equal(response.status, 200)
  }
  else {
    await sendParts(init.body, bytes)
  }
  if (options.poster) {
    const signed = await api(base, `/api/uploads/${init.body.id}/poster`, { method: 'POST', json: { contentType: 'image/jpeg', size: options.poster.length } })
    assert.equal(signed.status, 200, `poster answered ${signed.status}: ${JSON.stringify(signed.body)}`)
    assert.equal((await putBytes(signed.body.upload.url, options.poster, signed.body.upload.headers)).status, 200)
  }
  // A display copy made by the phone (a server without ffmpeg): the key it lands on once confirmed.
  let displayCopyKey: string | undefined
  if (options.displayCopy) {
    const signed = await api(base, `/api/uploads/${init.body.id}/display-copy`, { method: 'POST', json: { contentType: 'video/mp4', size: options.displayCopy.length } })
    assert.equal(signed.status, 200, `display-copy answered ${signed.status}: ${JSON.stringify(signed.body)}`)
    assert.equal((await putBytes(signed.body.upload.url, options.displayCopy, signed.body.upload.headers)).status, 200)
    displayCopyKey = keyOfUrl(signed.body.upload.url)
  }
  const confirm = await api(base, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
  return { init: init.body, confirm, displayCopyKey }
}
