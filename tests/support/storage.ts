import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3'
import type { TestS3 } from './s3'
import { S3_BUCKET } from './s3'

/** Reads the storage directly (not through the service) to check what is really there. */
export interface StorageProbe {
  exists(key: string): Promise<boolean>
  read(key: string): Promise<Buffer>
  openMultipartUploads(): Promise<number>
}

export function localProbe(mediaDir: string): StorageProbe {
  return {
    async exists(key) { return existsSync(join(mediaDir, key)) },
    async read(key) { return readFileSync(join(mediaDir, key)) },
    async openMultipartUploads() {
      const dir = join(mediaDir, '.multipart')
      if (!existsSync(dir)) return 0
      const { readdirSync } = await import('node:fs')
      return readdirSync(dir).length
    },
  }
}

export function s3Probe(s3: TestS3): StorageProbe {
  const client = new S3Client({
    region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  })
  return {
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: key }))
        return true
      }
      catch {
        return false
      }
    },
    async read(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }))
      return Buffer.from(await object.Body!.transformToByteArray())
    },
    async openMultipartUploads() {
      const list = await client.send(new ListMultipartUploadsCommand({ Bucket: S3_BUCKET }))
      return list.Uploads?.length ?? 0
    },
  }
}
