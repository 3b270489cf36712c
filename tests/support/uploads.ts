import assert from 'node:assert/strict'
import { api, fetchFresh } from './http'

export interface InitBody {
  fileName?: string
  contentType: string
  size: number
  durationSec?: number
  author?: string
  message?: string
  /** SHA-256 of the bytes, hex (the duplicate check). */
  hash?: string
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

export async function putBytes(url: string, bytes: Buffer, headers: Record<string, string> = {}) {
  return fetchFresh(url, { method: 'PUT', body: bytes as unknown as BodyInit, headers })
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
export async function uploadFile(base: string, bytes: Buffer, body: InitBody, options: { poster?: Buffer } = {}) {
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
  const confirm = await api(base, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
  return { init: init.body, confirm }
}
