import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { distinctJpeg } from '../support/seed'
import { keyOfUrl, putBytes, uploadFile } from '../support/uploads'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** init as a second phone would, declaring the hash of `bytes`. */
function initWithHash(base: string, bytes: Buffer, hash = sha256(bytes), author = 'Outro Convidado') {
  return api(base, '/api/uploads/init', {
    method: 'POST',
    json: { fileName: 'IMG_0002.JPG', contentType: 'image/jpeg', size: bytes.length, author, hash },
  })
}

describe.each(['local', 's3'] as const)('duplicates at init (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3', admin: true, db: true })

  const rowsWithHash = async (hash: string) =>
    Number((await server.db.execute({ sql: 'SELECT count(*) AS n FROM uploads WHERE content_hash = ?', args: [hash] })).rows[0]!.n)

  /** A confirmed photo sent with its hash. */
  async function sentPhoto() {
    const bytes = await distinctJpeg()
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, hash: sha256(bytes) })
    expect(confirm.status).toBe(200)
    return { id: init.id as string, bytes, hash: sha256(bytes), key: keyOfUrl(init.upload.url), undoToken: init.undoToken as string }
  }

  it('init of bytes already confirmed answers 200 with the earlier upload: no new record, no upload target, no undo token', async () => {
    const first = await sentPhoto()
    expect(first.undoToken).toMatch(/^[\w-]{43}$/)
    const again = await initWithHash(server.url, first.bytes)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ id: first.id, kind: 'photo', duplicate: true })
    expect(await rowsWithHash(first.hash)).toBe(1)
    // The hash in capitals is the same hash.
    const shouting = await initWithHash(server.url, first.bytes, first.hash.toUpperCase())
    expect([shouting.status, shouting.body.id]).toEqual([200, first.id])
    expect(await rowsWithHash(first.hash)).toBe(1)
  })

  it('a copy the couple rejected answers as if new: the answer tells nothing the gallery does not show', async () => {
    const first = await sentPhoto()
    expect((await api(server.url, `/api/admin/uploads/${first.id}/reject`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    const again = await initWithHash(server.url, first.bytes)
    expect(again.status).toBe(201)
    expect(again.body.id).not.toBe(first.id)
    expect(again.body.undoToken).toMatch(/^[\w-]{43}$/)
  })

  it('a copy waiting for the couple (pre-moderation) answers as if new', async () => {
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'pre' }, cookie: server.cookie })).status).toBe(200)
    try {
      const bytes = await distinctJpeg()
      const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, hash: sha256(bytes) })
      expect(confirm.body).toEqual({ id: init.id, status: 'pending' })
      const again = await initWithHash(server.url, bytes)
      expect(again.status).toBe(201)
      expect(again.body.id).not.toBe(init.id)
    }
    finally {
      await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post' }, cookie: server.cookie })
    }
  })

  it('a deleted copy does not count: the same bytes make a new upload', async () => {
    const first = await sentPhoto()
    expect((await api(server.url, `/api/admin/uploads/${first.id}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
    const again = await initWithHash(server.url, first.bytes)
    expect(again.status).toBe(201)
    expect(again.body.id).not.toBe(first.id)
    expect(again.body.undoToken).toMatch(/^[\w-]{43}$/)
  })

  it('an unconfirmed or aborted copy does not count', async () => {
    const bytes = await distinctJpeg()
    const pending = await initWithHash(server.url, bytes)
    expect(pending.status).toBe(201)
    const second = await initWithHash(server.url, bytes)
    expect(second.status).toBe(201)
    expect(second.body.id).not.toBe(pending.body.id)
    expect((await api(server.url, `/api/uploads/${pending.body.id}/abort`, { method: 'POST' })).status).toBe(200)
    const third = await initWithHash(server.url, bytes)
    expect(third.status).toBe(201)
  })

  it('the same hash with another size is not a duplicate', async () => {
    const first = await sentPhoto()
    const other = await api(server.url, '/api/uploads/init', {
      method: 'POST', json: { fileName: 'x.jpg', contentType: 'image/jpeg', size: first.bytes.length + 1, hash: first.hash },
    })
    expect(other.status).toBe(201)
  })

  it('a hash that is not 64 hex digits is 400 INVALID_REQUEST', async () => {
    const bytes = await distinctJpeg()
    for (const hash of ['abc', sha256(bytes).slice(1), `${sha256(bytes).slice(1)}g`]) {
      const response = await initWithHash(server.url, bytes, hash)
      expect([response.status, response.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    }
  })
})

// Both drivers prove the declared hash by reading the stored bytes (S3: a streamed read of objects
// up to 50 MiB, since s3rver ignores x-amz-checksum-sha256; docs/api.md, "Duplicates").
describe.each(['local', 's3'] as const)('confirm checks the declared hash (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })

  it('bytes whose SHA-256 is not the declared one are refused with 422 CONTENT_MISMATCH, record and bytes removed', async () => {
    const bytes = await distinctJpeg()
    const declared = sha256(await distinctJpeg())
    const init = await initWithHash(server.url, bytes, declared)
    expect(init.status).toBe(201)
    expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
    const confirm = await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })
    expect(confirm.status).toBe(422)
    expect(confirm.body.data).toMatchObject({ code: 'CONTENT_MISMATCH', declaredHash: declared, storedHash: sha256(bytes) })
    expect(await server.probe.exists(keyOfUrl(init.body.upload.url))).toBe(false)
    expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST' })).status).toBe(404)
    // Nothing was recorded as sent: the same bytes with their true hash go through.
    const honest = await initWithHash(server.url, bytes)
    expect(honest.status).toBe(201)
  })

  it('bytes matching the declared hash are confirmed', async () => {
    const bytes = await distinctJpeg()
    const { confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, hash: sha256(bytes) })
    expect(confirm.status).toBe(200)
  })
})
