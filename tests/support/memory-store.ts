import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { MediaStore, Promotion, StoredPart } from '../../server/utils/storage/media-store'
import { stagedKeyOf } from '../../server/utils/storage/keys'

/**
 * A MediaStore that keeps objects in a Map: the upload rules (claim, confirm, abort, undo,
 * delete) run against it in unit tests, without a disk, s3rver or a server. Only what those rules
 * ask of storage is real; URLs are placeholders nobody fetches. Its video location blanking finds
 * nothing to blank (the real drivers' blanking has e2e suites of its own). `failDeletes` makes
 * every delete refuse, as a storage that is down would.
 */
export interface MemoryMediaStore extends MediaStore {
  objects: Map<string, Buffer>
  failDeletes: boolean
}

export function createMemoryMediaStore(): MemoryMediaStore {
  const objects = new Map<string, Buffer>()
  const parts = new Map<string, Map<number, Buffer>>()
  let uploads = 0
  const store: MemoryMediaStore = {
    driver: 'local',
    objects,
    failDeletes: false,
    async presignPut(key, { contentType }) {
      return { url: `memory://${key}`, headers: { 'content-type': contentType } }
    },
    async createMultipart() {
      const uploadId = `upload-${++uploads}`
      parts.set(uploadId, new Map())
      return uploadId
    },
    async presignPart(key, uploadId, partNumber) {
      return `memory://${key}?upload=${uploadId}&part=${partNumber}`
    },
    async listParts(_key, uploadId) {
      return [...(parts.get(uploadId) ?? [])].map(([partNumber, bytes]): StoredPart => ({ partNumber, size: bytes.length })).sort((a, b) => a.partNumber - b.partNumber)
    },
    async completeMultipart(key, uploadId, list) {
      const stored = parts.get(uploadId)!
      objects.set(key, Buffer.concat(list.map(part => stored.get(part.partNumber)!)))
      parts.delete(uploadId)
    },
    async abortMultipart(_key, uploadId) {
      parts.delete(uploadId)
    },
    async head(key) {
      const bytes = objects.get(key)
      return bytes ? { size: bytes.length } : null
    },
    async readRange(key, start, end) {
      const bytes = objects.get(key)
      if (!bytes) throw new Error(`no object ${key}`)
      return bytes.subarray(start, end + 1)
    },
    async read(key) {
      const bytes = objects.get(key)
      if (!bytes) throw new Error(`no object ${key}`)
      return Readable.from([bytes])
    },
    async put(key, body) {
      objects.set(key, Buffer.from(body))
    },
    async putFile(key, path) {
      objects.set(key, await readFile(path))
    },
    async delete(key) {
      if (store.failDeletes) throw new Error('storage refuses deletes')
      objects.delete(key)
    },
    async move(from, to) {
      const bytes = objects.get(from)
      if (!bytes) return false
      objects.set(to, bytes)
      objects.delete(from)
      return true
    },
    async promote(key): Promise<Promotion> {
      const found = await store.move(stagedKeyOf(key), key) || objects.has(key)
      return found ? { found: true, location: null } : { found: false }
    },
    async blankVideoLocation() {
      return { ok: true, removed: [] }
    },
    async sha256Of(key) {
      return createHash('sha256').update(objects.get(key) ?? Buffer.alloc(0)).digest('hex')
    },
    async persist() {},
    async listOlderThan() {
      return []
    },
    publicUrl(key) {
      return `memory://${key}`
    },
    async signedGetUrl(key) {
      return `memory://${key}?signed`
    },
    async ping() {},
  }
  return store
}

/** What a guest's PUT does: the bytes land where the signed URL points. */
export function putSigned(store: MemoryMediaStore, url: string, bytes: Buffer): void {
  store.objects.set(url.slice('memory://'.length).split('?')[0]!, bytes)
}
