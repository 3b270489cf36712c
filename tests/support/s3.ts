import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { S3Client } from '@aws-sdk/client-s3'
// s3rver is a real S3-compatible server (presigned PUT, multipart, HEAD, ranged GET); test-only.
import S3rver from 's3rver'
import { freePort } from './ports'

export const S3_BUCKET = 'event-media'
export const S3_KEY = 'S3RVER'
export const S3_SECRET = 'S3RVER'

const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`

export interface S3Request {
  method: string
  /** The object key (empty for a bucket request). */
  key: string
  /** The `Range` header of a GET, if any. */
  range?: string
}

export interface TestS3 {
  port: number
  directory: string
  endpoint: string
  env: Record<string, string>
  /** Every request s3rver received since it started (or since a test emptied it), in order; the newest 50,000 at least. */
  requests: S3Request[]
  stop: () => Promise<void>
}

/** Records each request as it reaches s3rver, so a test can count what one call of the service costs the storage. */
function requestLog(requests: S3Request[]) {
  return async (ctx: any, next: () => Promise<void>) => {
    const [, , key = ''] = /^\/([^/]+)\/?(.*)$/.exec(ctx.path) ?? []
    // A long load run keeps the newest half rather than grow without end.
    if (requests.length >= 100_000) requests.splice(0, 50_000)
    requests.push({ method: ctx.method, key: decodeURIComponent(key), ...(ctx.headers.range ? { range: String(ctx.headers.range) } : {}) })
    return next()
  }
}

/**
 * s3rver implements multipart create, upload part and complete, but not ListParts,
 * AbortMultipartUpload or ListMultipartUploads, which real S3, R2 and MinIO all have and which the
 * service relies on. This adds the three on top of s3rver's own part store (a folder per upload
 * holding `<n>` and `<n>.md5`), answering in S3's XML, so the service's real S3 code runs unchanged.
 */
function multipartExtensions(root: string) {
  const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`
  const noSuchUpload = xml('<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>')
  return async (ctx: any, next: () => Promise<void>) => {
    const [, bucket, key] = /^\/([^/]+)\/?(.*)$/.exec(ctx.path) ?? []
    if (!bucket) return next()
    const uploadsDir = join(root, bucket, '._S3rver_uploads')
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      const ids = existsSync(uploadsDir) ? readdirSync(uploadsDir) : []
      ctx.type = 'application/xml'
      ctx.body = xml(`<ListMultipartUploadsResult><Bucket>${bucket}</Bucket>${ids.map(id => `<Upload><UploadId>${id}</UploadId><Key>${readFileSync(join(uploadsDir, id, 'key'), 'utf8')}</Key></Upload>`).join('')}<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>`)
      return
    }
    const uploadId = ctx.query.uploadId
    if (!key || typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId) || !['GET', 'DELETE'].includes(ctx.method)) return next()
    const dir = join(uploadsDir, uploadId)
    if (!existsSync(dir)) {
      ctx.status = 404
      ctx.type = 'application/xml'
      ctx.body = noSuchUpload
      return
    }
    if (ctx.method === 'DELETE') {
      rmSync(dir, { recursive: true, force: true })
      ctx.status = 204
      return
    }
    const parts = readdirSync(dir).filter(name => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b)
    ctx.type = 'application/xml'
    ctx.body = xml(`<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId>${parts.map(n =>
      `<Part><PartNumber>${n}</PartNumber><ETag>"${readFileSync(join(dir, `${n}.md5`), 'utf8')}"</ETag><Size>${statSync(join(dir, String(n))).size}</Size></Part>`).join('')}<IsTruncated>false</IsTruncated></ListPartsResult>`)
  }
}

/**
 * s3rver answers NotImplemented to UploadPartCopy (a multipart part copied from a range of another
 * object), which real S3, R2 and MinIO have and which stripping a stored video's location relies
 * on. This adds it on s3rver's own store: the source range is read with its ranged GET and written
 * as the part with its part writer, so the completed object is built by s3rver itself. Honours
 * `x-amz-copy-source-if-match`, refuses a range outside the object, and answers in S3's XML.
 */
function uploadPartCopyExtension(root: string) {
  const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`
  const fail = (ctx: any, status: number, code: string, message: string) => {
    ctx.status = status
    ctx.type = 'application/xml'
    ctx.body = xml(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`)
  }
  return async (ctx: any, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId
    if (ctx.method !== 'PUT' || !('x-amz-copy-source' in ctx.headers) || typeof uploadId !== 'string') return next()
    const [, bucket] = /^\/([^/]+)\/.+$/.exec(ctx.path) ?? []
    const partNumber = Number(ctx.query.partNumber)
    if (!bucket || !/^[0-9a-f]+$/.test(uploadId) || !Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) return fail(ctx, 400, 'InvalidArgument', 'Bad upload id or part number.')
    if (!existsSync(join(root, bucket, '._S3rver_uploads', uploadId))) return fail(ctx, 404, 'NoSuchUpload', 'The specified upload does not exist.')
    const source = decodeURIComponent(String(ctx.headers['x-amz-copy-source']).split('?')[0]!).replace(/^\//, '')
    const slash = source.indexOf('/')
    const [sourceBucket, sourceKey] = [source.slice(0, slash), source.slice(slash + 1)]
    const metadata = slash > 0 ? await ctx.store.getMetadata(sourceBucket, sourceKey).catch(() => null) : null
    if (!metadata) return fail(ctx, 404, 'NoSuchKey', 'The specified key does not exist.')
    const ifMatch = ctx.headers['x-amz-copy-source-if-match']
    if (ifMatch && ifMatch.replace(/"/g, '') !== String(metadata.etag).replace(/"/g, '')) return fail(ctx, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold')
    let range: { start: number, end: number } | undefined
    const rangeHeader = ctx.headers['x-amz-copy-source-range']
    if (rangeHeader) {
      const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(rangeHeader) ?? []
      range = { start: Number(first), end: Number(last) }
      if (!first || range.end < range.start || range.end >= Number(metadata['content-length'])) return fail(ctx, 400, 'InvalidArgument', 'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy')
    }
    const object = await ctx.store.getObject(sourceBucket, sourceKey, range)
    const { md5 } = await ctx.store.putPart(bucket, uploadId, partNumber, object.content)
    ctx.type = 'application/xml'
    ctx.body = xml(`<CopyPartResult><LastModified>${new Date().toISOString()}</LastModified><ETag>"${md5}"</ETag></CopyPartResult>`)
  }
}

/**
 * Starts s3rver; pass the port and folder of an earlier one to bring "the same storage" back up.
 * `uploadPartCopy: false` leaves s3rver's own NotImplemented answer, as some S3-compatible storages give.
 */
export async function startS3(reuse?: { port: number, directory: string }, options: { uploadPartCopy?: boolean } = {}): Promise<TestS3> {
  const port = reuse?.port ?? await freePort()
  const directory = reuse?.directory ?? mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET, configs: [CORS] }],
  })
  // Koa composes its middleware when it starts listening: this runs before s3rver's router.
  const middleware = (server as unknown as { middleware: unknown[] }).middleware
  middleware.unshift(multipartExtensions(directory))
  if (options.uploadPartCopy !== false) middleware.unshift(uploadPartCopyExtension(directory))
  const requests: S3Request[] = []
  middleware.unshift(requestLog(requests))
  await server.run()
  // A test may stop the storage itself (an outage) before its clean-up stops it again.
  let closed: Promise<void> | undefined
  const endpoint = `http://127.0.0.1:${port}`
  return {
    port,
    directory,
    endpoint,
    env: {
      S3_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_SECRET,
      S3_FORCE_PATH_STYLE: 'true',
    },
    requests,
    stop: () => closed ??= server.close(),
  }
}

/** A client set up as the service sets up its own (server/utils/media-store-s3.ts), for tests that call server code directly. */
export function serviceS3Client(s3: TestS3): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_SECRET },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3000, requestTimeout: 10_000, throwOnRequestTimeout: true },
  })
}
