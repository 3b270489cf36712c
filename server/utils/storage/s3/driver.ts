import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand,
  DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, ListPartsCommand,
  PutObjectCommand, S3Client, S3ServiceException, UploadPartCommand, type Part,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { AppConfig } from '../../config'
import { contentTypeOfKey, isPrivateKey, stagedKeyOf } from '../keys'
import { StorageUnavailableError, type MediaStore, type StoredPart } from '../media-store'
import { stripVideoLocationInS3 } from './video-location'

// The presigner leaves content-type unsigned unless asked; signing both headers binds the URL to
// the declared type and exact length, so a guest cannot send something else through it.
const SIGNED_PUT_HEADERS = new Set(['content-type', 'content-length'])

/**
 * What an object moved out of staging is served with, decided here and never taken from the
 * guest's PUT (a copy keeps the source's headers unless told to replace them): the type its
 * server-made key names, always an image or a video type, shown inline, and cached as what it is
 * (public media never changes under its key; an original is only ever behind a signed URL). A
 * bucket cannot send `X-Content-Type-Options: nosniff`; a type that is never HTML, set by the
 * server, is what stands in for it (the local driver sends both, storage/local/serve.ts).
 */
function servedHeaders(key: string) {
  return {
    MetadataDirective: 'REPLACE' as const,
    ContentType: contentTypeOfKey(key),
    ContentDisposition: 'inline',
    CacheControl: isPrivateKey(key) ? 'private, no-store' : 'public, max-age=31536000, immutable',
  }
}

/**
 * Objects up to this size have their declared hash proved at confirm by reading them (every photo
 * a phone sends in one PUT). S3 and R2 could check `x-amz-checksum-sha256` on the signed PUT, but
 * multipart checksums are per part and s3rver, the storage the tests run on, ignores the header:
 * a read is what can be proved here.
 */
const HASH_READ_LIMIT = 50 * 1024 * 1024

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey' || error.name === 'NoSuchUpload'
  }
  return false
}

/**
 * The S3 driver's one error wrapper: anything but a clear "not there" from S3 means storage is
 * unreachable or refusing (503). With `missingFails`, a "not there" too: work that found its object
 * a moment ago (a video being blanked) cannot tell the guest anything better when it vanishes.
 */
async function guard<T>(work: () => Promise<T>, { missingFails = false } = {}): Promise<T> {
  try {
    return await work()
  }
  catch (error) {
    if (isNotFound(error) && !missingFails) throw error
    throw new StorageUnavailableError(error)
  }
}

export function createS3MediaStore(config: AppConfig): MediaStore {
  const bucket = config.S3_BUCKET!
  const client = new S3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
      : undefined,
    // Checksums in presigned URLs would have to be computed by the browser; R2 and MinIO also
    // reject some of the SDK's newer defaults.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // Without these a slow or stalled storage holds guests' requests for minutes (the SDK has no
    // request timeout by default, and 50 sockets queue the rest): fail in seconds with a 503 instead.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 10_000, throwOnRequestTimeout: true, httpAgent: { maxSockets: 256 }, httpsAgent: { maxSockets: 256 } },
  })

  const publicBase = (() => {
    if (config.S3_PUBLIC_URL) return config.S3_PUBLIC_URL.replace(/\/+$/, '')
    if (config.S3_ENDPOINT) return `${config.S3_ENDPOINT.replace(/\/+$/, '')}/${bucket}`
    return `https://${bucket}.s3.${config.S3_REGION}.amazonaws.com`
  })()

  const s3 = { client, bucket }

  const store: MediaStore = {
    driver: 's3',
    async presignPut(key, { contentType, contentLength, expiresIn }) {
      const command = new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, ContentLength: contentLength })
      const url = await guard(() => getSignedUrl(client, command, { expiresIn, signableHeaders: SIGNED_PUT_HEADERS }))
      return { url, headers: { 'content-type': contentType } }
    },
    async createMultipart(key, contentType) {
      const created = await guard(() => client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType })))
      return created.UploadId!
    },
    async presignPart(key, uploadId, partNumber, contentLength, expiresIn) {
      const command = new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, ContentLength: contentLength })
      return guard(() => getSignedUrl(client, command, { expiresIn, signableHeaders: new Set(['content-length']) }))
    },
    async listParts(key, uploadId) {
      const parts: StoredPart[] = []
      let marker: string | undefined
      do {
        const page = await guard(() => client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker })))
        for (const part of page.Parts ?? []) parts.push({ partNumber: part.PartNumber!, size: part.Size ?? 0, etag: part.ETag })
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined
      } while (marker)
      return parts.sort((a, b) => a.partNumber - b.partNumber)
    },
    async completeMultipart(key, uploadId, parts) {
      const Parts: Part[] = parts.map(part => ({ PartNumber: part.partNumber, ETag: part.etag }))
      await guard(() => client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts } })))
    },
    async abortMultipart(key, uploadId) {
      try {
        await guard(() => client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })))
      }
      catch (error) {
        if (!isNotFound(error)) throw error
      }
    },
    async head(key) {
      try {
        const head = await guard(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })))
        return { size: head.ContentLength ?? 0, contentType: head.ContentType, etag: head.ETag }
      }
      catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },
    async readRange(key, start, end) {
      const object = await guard(() => client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end}` })))
      return Buffer.from(await object.Body!.transformToByteArray())
    },
    async read(key) {
      const object = await guard(() => client.send(new GetObjectCommand({ Bucket: bucket, Key: key })))
      return object.Body as Readable
    },
    async put(key, body, contentType) {
      await guard(() => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' })))
    },
    async putFile(key, path, contentType) {
      // A stream needs its length stated: S3 takes no PUT of unknown length without chunked signing.
      const { size } = await stat(path)
      await guard(() => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(path), ContentLength: size, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' })))
    },
    async delete(key) {
      await guard(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })))
    },
    async move(from, to) {
      try {
        await guard(() => client.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: `${bucket}/${from}`, ...servedHeaders(to) })))
      }
      catch (error) {
        if (isNotFound(error)) return false
        throw error
      }
      await guard(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from })))
      return true
    },
    async promote(key, video) {
      const staged = stagedKeyOf(key)
      if (!video) {
        const found = await store.move(staged, key) || (await store.head(key)) !== null
        return found ? { found: true, location: null } : { found: false }
      }
      // A video's move is the server-side copy that blanks its location (one copy, not two). Every
      // read and the copy are tied to the staged object's ETag, so a PUT racing this confirm fails
      // it rather than slip unscanned bytes through.
      const head = await store.head(staged)
      if (!head) return (await store.head(key)) ? { found: true, location: null } : { found: false }
      const result = await guard(() => stripVideoLocationInS3(s3, {
        sourceKey: staged, destinationKey: key, size: head.size, contentType: video.contentType, etag: head.etag,
      }), { missingFails: true })
      // Unreadable: nothing was moved, and the caller refuses the upload.
      if (!result.ok) return { found: true, location: result, size: head.size }
      await store.delete(staged)
      return { found: true, location: { ok: true, removed: result.removed, durationSec: result.durationSec, videoCodec: result.videoCodec }, size: head.size }
    },
    async blankVideoLocation(key, contentType, size) {
      // Rewritten onto itself, untouched ranges copied inside the storage, only when there is something to blank.
      const result = await guard(() => stripVideoLocationInS3(s3, { sourceKey: key, size, contentType }), { missingFails: true })
      return result.ok ? { ok: true, removed: result.removed, durationSec: result.durationSec, videoCodec: result.videoCodec } : result
    },
    async sha256Of(key, size) {
      // A photo's one more read at confirm; a larger object (a video) is not downloaded again.
      if (size > HASH_READ_LIMIT) return null
      const object = await guard(() => client.send(new GetObjectCommand({ Bucket: bucket, Key: key })), { missingFails: true })
      const hash = createHash('sha256')
      for await (const chunk of object.Body as Readable) hash.update(chunk as Buffer)
      return hash.digest('hex')
    },
    async persist() {
      // S3 answers a PUT only once its bytes are durable.
    },
    async listOlderThan(prefix, olderThan) {
      const keys: string[] = []
      let token: string | undefined
      do {
        const page = await guard(() => client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token })))
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified < olderThan) keys.push(object.Key)
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return keys
    },
    publicUrl(key) {
      return `${publicBase}/${key}`
    },
    async signedGetUrl(key, expiresIn) {
      return guard(() => getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn }))
    },
    async ping() {
      await guard(() => client.send(new HeadBucketCommand({ Bucket: bucket })))
    },
  }
  return store
}
