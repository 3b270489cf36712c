import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

export interface TestS3 {
  port: number
  directory: string
  endpoint: string
  env: Record<string, string>
  stop: () => Promise<void>
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

/** Starts s3rver; pass the port and folder of an earlier one to bring "the same storage" back up. */
export async function startS3(reuse?: { port: number, directory: string }): Promise<TestS3> {
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
  ;(server as unknown as { middleware: unknown[] }).middleware.unshift(multipartExtensions(directory))
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
    stop: () => closed ??= server.close(),
  }
}
