import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { H3Event } from 'h3'
import { ErrorCode } from '#shared/errors'
import type { AppConfig } from '../../config'
import type { MediaStore, StoredPart } from '../media-store'
import { stagedKeyOf } from '../keys'
import { grantQuery, localSigningKey, type LocalGrant } from './grant'
import { stripVideoLocationInFile } from './video-location'

const MULTIPART_DIR = '.multipart'

/** The origin media URLs point at: the request's own when there is one, else PUBLIC_BASE_URL. */
function currentOrigin(fallback: string): string {
  try {
    // Worked out once per request: a gallery page signs dozens of URLs.
    const event = useEvent()
    return event.context.mediaOrigin ??= requestOrigin(event)
  }
  catch {
    return new URL(fallback).origin
  }
}

/** What only the local driver does: the /media routes serve and receive its files. */
interface LocalDriverExtras {
  root: string
  pathOf(key: string): string
  /**
   * The stand-in for S3's presigned PUT: the body streams to a temporary file (never held in
   * memory), may not be longer than signed, and only a complete body is renamed into place.
   * Answers the ETag the PUT returns.
   */
  receive(grant: LocalGrant, event: H3Event): Promise<string>
}

export type LocalMediaStore = MediaStore & LocalDriverExtras

export function createLocalMediaStore(config: AppConfig): LocalMediaStore {
  const root = resolve(config.MEDIA_DIR)
  const signingKey = localSigningKey(config.SESSION_SECRET)

  function pathOf(key: string): string {
    const path = resolve(root, key)
    if (!path.startsWith(root + sep)) throw new Error('key outside the media folder')
    return path
  }
  const partsDir = (uploadId: string) => pathOf(`${MULTIPART_DIR}/${uploadId.replace(/[^\w-]/g, '')}`)

  function url(grant: LocalGrant): string {
    return `${currentOrigin(config.PUBLIC_BASE_URL)}/media/${grant.key}?${grantQuery(grant, signingKey)}`
  }
  const expiry = (seconds: number) => Math.floor(Date.now() / 1000) + seconds

  async function writeAtomically(path: string, write: (tmp: string) => Promise<void>) {
    await mkdir(dirname(path), { recursive: true })
    const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`
    try {
      await write(tmp)
      await rename(tmp, path)
    }
    catch (error) {
      await rm(tmp, { force: true })
      throw error
    }
  }

  async function receive(grant: LocalGrant, event: H3Event): Promise<string> {
    const length = grant.length ?? 0
    const tooLarge = () => apiError(413, ErrorCode.BODY_TOO_LARGE, 'Body longer than signed', { limit: length })
    if (!grant.uploadId && getRequestHeader(event, 'content-type') !== (grant.contentType ?? '')) {
      throw apiError(403, ErrorCode.INVALID_SIGNATURE, 'Content type differs from the signed one')
    }
    const declared = getRequestHeader(event, 'content-length')
    if (declared !== undefined && Number(declared) > length) throw tooLarge()

    const target = grant.uploadId ? join(partsDir(grant.uploadId), String(grant.partNumber)) : pathOf(grant.key)
    if (grant.uploadId && !(await stat(dirname(target)).catch(() => null))) {
      throw apiError(404, ErrorCode.NOT_FOUND, 'No such upload')
    }
    let received = 0
    // Counts as it streams: one byte past the signed length and the write stops.
    async function* limited(source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        received += chunk.length
        if (received > length) throw tooLarge()
        yield chunk
      }
    }
    try {
      await writeAtomically(target, async (tmp) => {
        await pipeline(event.node.req, limited, createWriteStream(tmp, { highWaterMark: 1024 * 1024 }))
        if (received !== length) {
          throw apiError(400, ErrorCode.INCOMPLETE_BODY, 'Body shorter than signed', { expected: length, received })
        }
      })
    }
    catch (error) {
      // Stop reading a body we refused; the client gets the answer instead of a hang.
      if (!event.node.req.complete) event.node.res.setHeader('connection', 'close')
      throw error
    }
    return `"${length}-${grant.partNumber ?? 1}"`
  }

  const store: LocalMediaStore = {
    driver: 'local',
    root,
    pathOf,
    receive,
    async presignPut(key, { contentType, contentLength, expiresIn }) {
      pathOf(key)
      return { url: url({ method: 'PUT', key, expires: expiry(expiresIn), length: contentLength, contentType }), headers: { 'content-type': contentType } }
    },
    async createMultipart(key, contentType) {
      const uploadId = randomBytes(16).toString('base64url')
      await mkdir(partsDir(uploadId), { recursive: true })
      await writeFile(join(partsDir(uploadId), 'upload.json'), JSON.stringify({ key, contentType }))
      return uploadId
    },
    async presignPart(key, uploadId, partNumber, contentLength, expiresIn) {
      return url({ method: 'PUT', key, expires: expiry(expiresIn), length: contentLength, uploadId, partNumber })
    },
    async listParts(_key, uploadId) {
      const names = await readdir(partsDir(uploadId)).catch(() => [] as string[])
      const parts: StoredPart[] = []
      for (const name of names) {
        if (!/^\d+$/.test(name)) continue
        const info = await stat(join(partsDir(uploadId), name))
        parts.push({ partNumber: Number(name), size: info.size })
      }
      return parts.sort((a, b) => a.partNumber - b.partNumber)
    },
    async completeMultipart(key, uploadId, parts) {
      const dir = partsDir(uploadId)
      await writeAtomically(pathOf(key), async (tmp) => {
        const out = createWriteStream(tmp)
        for (const part of parts) {
          await pipeline(createReadStream(join(dir, String(part.partNumber))), out, { end: false })
        }
        await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())))
      })
      await rm(dir, { recursive: true, force: true })
    },
    async abortMultipart(_key, uploadId) {
      await rm(partsDir(uploadId), { recursive: true, force: true })
    },
    async persist(key) {
      const path = pathOf(key)
      // The file's bytes, then its directory entry (it arrived by rename).
      for (const target of [path, dirname(path)]) {
        const handle = await open(target, 'r')
        try {
          await handle.sync()
        }
        finally {
          await handle.close()
        }
      }
    },
    async head(key) {
      const info = await stat(pathOf(key)).catch(() => null)
      return info?.isFile() ? { size: info.size } : null
    },
    async readRange(key, start, end) {
      const handle = await open(pathOf(key), 'r')
      try {
        const buffer = Buffer.alloc(end - start + 1)
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, start)
        return buffer.subarray(0, bytesRead)
      }
      finally {
        await handle.close()
      }
    },
    async read(key) {
      await stat(pathOf(key))
      return createReadStream(pathOf(key))
    },
    async put(key, body) {
      await writeAtomically(pathOf(key), tmp => writeFile(tmp, body))
    },
    async putFile(key, path) {
      await writeAtomically(pathOf(key), tmp => copyFile(path, tmp))
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async move(from, to) {
      await mkdir(dirname(pathOf(to)), { recursive: true })
      try {
        await rename(pathOf(from), pathOf(to))
        return true
      }
      catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
        throw error
      }
    },
    async promote(key) {
      // A rename: the video's location is blanked in place once confirm has checked the bytes.
      const found = await store.move(stagedKeyOf(key), key) || (await store.head(key)) !== null
      return found ? { found: true, location: null } : { found: false }
    },
    async blankVideoLocation(key, contentType) {
      // Written at its offsets and synced: confirm answers only once the clean bytes are durable.
      const result = await stripVideoLocationInFile(pathOf(key), contentType)
      return result.ok ? { ok: true, removed: result.removed, durationSec: result.durationSec, videoCodec: result.videoCodec } : result
    },
    async sha256Of(key) {
      // One read of the file: cheap on the disk it is on.
      const hash = createHash('sha256')
      for await (const chunk of createReadStream(pathOf(key))) hash.update(chunk as Buffer)
      return hash.digest('hex')
    },
    async listOlderThan(prefix, olderThan) {
      const keys: string[] = []
      const entries = await readdir(pathOf(prefix.replace(/\/$/, '')), { recursive: true, withFileTypes: true }).catch(() => [])
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const path = join(entry.parentPath, entry.name)
        const info = await stat(path).catch(() => null)
        if (info && info.mtimeMs < olderThan.getTime()) keys.push(path.slice(root.length + 1).split(sep).join('/'))
      }
      return keys
    },
    publicUrl(key) {
      return `${currentOrigin(config.PUBLIC_BASE_URL)}/media/${key}`
    },
    async signedGetUrl(key, expiresIn) {
      return url({ method: 'GET', key, expires: expiry(expiresIn) })
    },
    async collectLeftovers(olderThan) {
      let removed = 0
      const old = async (path: string) => ((await stat(path).catch(() => null))?.mtimeMs ?? Infinity) < olderThan.getTime()
      for (const folder of ['orig', 'media']) {
        const names = await readdir(join(root, folder)).catch(() => [] as string[])
        for (const name of names) {
          if (name.includes('.tmp-') && await old(join(root, folder, name))) {
            await rm(join(root, folder, name), { force: true })
            removed++
          }
        }
      }
      const uploadsDir = join(root, MULTIPART_DIR)
      for (const name of await readdir(uploadsDir).catch(() => [] as string[])) {
        if (await old(join(uploadsDir, name))) {
          await rm(join(uploadsDir, name), { recursive: true, force: true })
          removed++
        }
      }
      return removed
    },
    async ping() {
      await mkdir(root, { recursive: true })
      await readFile(join(root, '.ping')).catch(() => writeFile(join(root, '.ping'), 'ok'))
    },
  }
  return store
}

declare module 'h3' {
  interface H3EventContext {
    /** The origin this request's media URLs point at (see currentOrigin). */
    mediaOrigin?: string
  }
}
