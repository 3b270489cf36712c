import type { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand,
  GetObjectCommand, PutObjectCommand, S3ServiceException, UploadPartCommand, UploadPartCopyCommand,
  type CompletedPart, type S3Client,
} from '@aws-sdk/client-s3'
import pLimit from 'p-limit'
import { applyPatches, containerOfContentType, scanVideoLocation, type BytePatch, type ByteReader, type LocationScanFailure, type LocationScanOptions } from '#shared/media/video-location'
import type { VideoCodec } from '#shared/media/video-codec'
import { MiB, S3_PART_LIMITS, checkedPatches, planPatchedCopy, type PartLimits, type PlannedPart } from './part-plan'

/**
 * Blanking a stored video's location on S3 without passing the guest's bytes through the server:
 * the object is rebuilt as a multipart upload whose untouched ranges are copied inside the storage
 * (`UploadPartCopy`) and only the few MiB around the patches are read, patched and uploaded. The
 * destination may be another key, so the same single copy also moves a staged upload to its final
 * key. A storage without `UploadPartCopy` (it answers NotImplemented) gets the object streamed
 * through the patch instead: two parts in memory at most, never the whole file.
 *
 * The client is the one the S3 media store builds (`requestChecksumCalculation: 'WHEN_REQUIRED'`,
 * its timeouts); errors are the SDK's, for the caller to map (the store's `guard` makes them 503).
 */

export interface S3Bucket {
  client: S3Client
  bucket: string
}

export interface PatchedCopy {
  sourceKey: string
  /** Defaults to the source key: the object is then rewritten in place. */
  destinationKey?: string
  /** The source object's size, as a HEAD answered it. */
  size: number
  patches: readonly BytePatch[]
  contentType: string
  cacheControl?: string
  /** The source's ETag: every read and copy then fails rather than mix two versions of the object. */
  etag?: string
}

export interface PatchedCopyOptions {
  /** Objects smaller than this are read, patched and put back whole (default 10 MiB). */
  smallObjectLimit?: number
  limits?: PartLimits
  /** Parts copied or uploaded at once (default 4). */
  concurrency?: number
  /** `stream` skips `UploadPartCopy` (default `auto`: copy, and stream when the storage cannot). */
  mode?: 'auto' | 'stream'
  /** Part size of the streamed way (default 8 MiB; two are held in memory). */
  streamPartSize?: number
  /**
   * How long a copy, an upload or a completion may take (default 2 minutes). The service's client
   * gives a guest's request 10 s; copying hundreds of MiB inside the storage, or completing a
   * multipart upload of a gigabyte, can take longer, and is worth waiting for within confirm.
   */
  slowRequestTimeoutMs?: number
}

export type PatchedCopyMethod = 'none' | 'copy-object' | 'put' | 'part-copy' | 'streamed'

export interface PatchedCopyResult {
  method: PatchedCopyMethod
  /** The parts of a `part-copy`, for the record (tests check S3's part rules on them). */
  parts: PlannedPart[]
}

/** What `client.send` takes for a request allowed to run longer than the client's own timeout. */
interface Slow {
  requestTimeout: number
}

export const SMALL_OBJECT_LIMIT = 10 * MiB
const SLOW_REQUEST_TIMEOUT_MS = 120_000
/** CopyObject copies at most 5 GiB in one request. */
const MAX_COPY_OBJECT = 5 * 1024 * MiB

/** A reader of the object's bytes by ranged GETs, for `scanVideoLocation`. */
export function s3ObjectReader({ client, bucket }: S3Bucket, key: string, etag?: string): ByteReader {
  return async (start, end) => {
    if (end <= start) return new Uint8Array(0)
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end - 1}`, IfMatch: etag }))
    return object.Body!.transformToByteArray()
  }
}

function isNotImplemented(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotImplemented' || error.$metadata.httpStatusCode === 501)
}

function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`
}

/**
 * Runs `tasks` with at most `concurrency` at a time; after the first failure the rest are skipped,
 * and it is thrown once every running one has settled (the caller then aborts the upload).
 */
async function inPool(tasks: (() => Promise<void>)[], concurrency: number): Promise<void> {
  const limit = pLimit(concurrency)
  let failed = false
  const results = await Promise.allSettled(tasks.map(task => limit(async () => {
    if (failed) return
    try {
      await task()
    }
    catch (error) {
      failed = true
      throw error
    }
  })))
  const rejected = results.find(result => result.status === 'rejected')
  if (rejected) throw rejected.reason
}

/**
 * Writes `patches` over the object, at `destinationKey` (the same key by default), keeping every
 * other byte. With no patch, a different destination is one CopyObject, and the same key nothing.
 * The source is left in place when the destination differs: the caller deletes it.
 */
export async function copyS3ObjectWithPatches(s3: S3Bucket, copy: PatchedCopy, options: PatchedCopyOptions = {}): Promise<PatchedCopyResult> {
  const patches = checkedPatches(copy.size, copy.patches)
  const destinationKey = copy.destinationKey ?? copy.sourceKey
  const { client, bucket } = s3
  const slow = { requestTimeout: options.slowRequestTimeoutMs ?? SLOW_REQUEST_TIMEOUT_MS }
  if (!patches.length) {
    if (destinationKey === copy.sourceKey) return { method: 'none', parts: [] }
    if (copy.size <= MAX_COPY_OBJECT) {
      await client.send(new CopyObjectCommand({
        Bucket: bucket, Key: destinationKey, CopySource: copySource(bucket, copy.sourceKey), CopySourceIfMatch: copy.etag,
        MetadataDirective: 'REPLACE', ContentType: copy.contentType, CacheControl: copy.cacheControl,
      }), slow)
      return { method: 'copy-object', parts: [] }
    }
  }
  const limits = options.limits ?? S3_PART_LIMITS
  if (copy.size < Math.max(options.smallObjectLimit ?? SMALL_OBJECT_LIMIT, 2 * limits.minPart)) {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: copy.sourceKey, IfMatch: copy.etag }))
    const bytes = await object.Body!.transformToByteArray()
    if (bytes.length !== copy.size) throw new Error(`object ${copy.sourceKey} is ${bytes.length} bytes, not ${copy.size}`)
    applyPatches(bytes, 0, patches)
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: destinationKey, Body: bytes, ContentType: copy.contentType, CacheControl: copy.cacheControl }), slow)
    return { method: 'put', parts: [] }
  }
  if (options.mode !== 'stream') {
    const parts = planPatchedCopy(copy.size, patches, limits)
    try {
      await multipart(s3, destinationKey, copy, slow, async (uploadId) => {
        const completed: CompletedPart[] = []
        const send = (part: PlannedPart, index: number) => async () => {
          completed[index] = { PartNumber: index + 1, ETag: await sendPart(s3, uploadId, destinationKey, copy, patches, part, index + 1, slow) }
        }
        // One copy first, alone: a storage without UploadPartCopy says so before anything else is sent.
        const first = parts.findIndex(part => part.kind === 'copy')
        if (first >= 0) await send(parts[first]!, first)()
        await inPool(parts.map((part, index) => index === first ? async () => {} : send(part, index)), options.concurrency ?? 4)
        return completed
      })
      return { method: 'part-copy', parts }
    }
    catch (error) {
      if (!isNotImplemented(error)) throw error
    }
  }
  const partSize = options.streamPartSize ?? 8 * MiB
  if (partSize < limits.minPart) throw new RangeError('a streamed part must hold at least the minimum part size')
  await streamedCopy(s3, destinationKey, copy, patches, partSize, slow)
  return { method: 'streamed', parts: [] }
}

/** Creates a multipart upload, lets `fill` add its parts, completes it; aborts it on any failure. */
async function multipart(s3: S3Bucket, key: string, copy: PatchedCopy, slow: Slow, fill: (uploadId: string) => Promise<CompletedPart[]>): Promise<void> {
  const { client, bucket } = s3
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: copy.contentType, CacheControl: copy.cacheControl }))
  const uploadId = created.UploadId!
  try {
    const parts = await fill(uploadId)
    await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }), slow)
  }
  catch (error) {
    // Parts left behind would be billed until the bucket's lifecycle rule collects them.
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => {})
    throw error
  }
}

async function sendPart(s3: S3Bucket, uploadId: string, key: string, copy: PatchedCopy, patches: BytePatch[], part: PlannedPart, partNumber: number, slow: Slow): Promise<string> {
  const { client, bucket } = s3
  if (part.kind === 'copy') {
    const copied = await client.send(new UploadPartCopyCommand({
      Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber,
      CopySource: copySource(bucket, copy.sourceKey), CopySourceRange: `bytes=${part.start}-${part.end - 1}`, CopySourceIfMatch: copy.etag,
    }), slow)
    return copied.CopyPartResult!.ETag!
  }
  const bytes = await s3ObjectReader(s3, copy.sourceKey, copy.etag)(part.start, part.end)
  if (bytes.length !== part.end - part.start) throw new Error(`short read of ${copy.sourceKey} at ${part.start}`)
  applyPatches(bytes, part.start, patches)
  const uploaded = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: bytes, ContentLength: bytes.length }), slow)
  return uploaded.ETag!
}

/**
 * The fallback: the whole object read as one stream, patched as it flows, cut into parts. While a
 * part uploads the next one fills, so reading and sending overlap with two parts in memory.
 */
async function streamedCopy(s3: S3Bucket, key: string, copy: PatchedCopy, patches: BytePatch[], partSize: number, slow: Slow): Promise<void> {
  const { client, bucket } = s3
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: copy.sourceKey, IfMatch: copy.etag }))
  const body = object.Body as Readable
  try {
    await multipart(s3, key, copy, slow, async (uploadId) => {
      const completed: CompletedPart[] = []
      let pending: Promise<void> = Promise.resolve()
      let failure: unknown
      let offset = 0
      const flush = async (bytes: Uint8Array) => {
        await pending
        if (failure) throw failure
        applyPatches(bytes, offset, patches)
        offset += bytes.length
        const PartNumber = completed.length + 1
        completed.push({ PartNumber })
        // Caught here so a failure waits for the next flush instead of going unhandled.
        pending = client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.length }), slow)
          .then(
            (sent) => {
              completed[PartNumber - 1]!.ETag = sent.ETag
            },
            (error) => {
              failure = error
            },
          )
      }
      let buffer = new Uint8Array(partSize)
      let filled = 0
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        let at = 0
        while (at < chunk.length) {
          const taken = Math.min(chunk.length - at, partSize - filled)
          buffer.set(chunk.subarray(at, at + taken), filled)
          filled += taken
          at += taken
          if (filled === partSize) {
            await flush(buffer)
            buffer = new Uint8Array(partSize)
            filled = 0
          }
        }
      }
      if (filled > 0 || !completed.length) await flush(buffer.subarray(0, filled))
      await pending
      if (failure) throw failure
      if (offset !== copy.size) throw new Error(`object ${copy.sourceKey} streamed ${offset} bytes, not ${copy.size}`)
      return completed
    })
  }
  finally {
    body.destroy()
  }
}

export type S3LocationStrip
  = | { ok: true, removed: string[], patches: BytePatch[], method: PatchedCopyMethod, durationSec: number | null, videoCodec: VideoCodec | null }
    | { ok: false, reason: LocationScanFailure }

/**
 * Confirm's one call on S3: scans the stored video with ranged reads and, when it carries a
 * location, writes it back blanked at `destinationKey` (with none, only moves it there); reads how
 * long it plays on the way, from the same windows. When it
 * cannot be read (`ok: false`) nothing is written: the caller refuses the upload.
 */
export async function stripVideoLocationInS3(
  s3: S3Bucket,
  video: Omit<PatchedCopy, 'patches'>,
  options: PatchedCopyOptions & { scan?: LocationScanOptions } = {},
): Promise<S3LocationStrip> {
  const scan = await scanVideoLocation(s3ObjectReader(s3, video.sourceKey, video.etag), video.size, { container: containerOfContentType(video.contentType), measureDuration: true, ...options.scan })
  if (!scan.ok) return scan
  const { method } = await copyS3ObjectWithPatches(s3, { ...video, patches: scan.patches }, options)
  return { ok: true, removed: scan.removed, patches: scan.patches, method, durationSec: scan.durationSec ?? null, videoCodec: scan.videoCodec ?? null }
}
