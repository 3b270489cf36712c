import { mkdtempSync } from 'node:fs'
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
  endpoint: string
  env: Record<string, string>
  stop: () => Promise<void>
}

export async function startS3(): Promise<TestS3> {
  const port = await freePort()
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 's3rver-')),
    configureBuckets: [{ name: S3_BUCKET, configs: [CORS] }],
  })
  await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    env: {
      S3_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_SECRET,
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: () => server.close(),
  }
}
