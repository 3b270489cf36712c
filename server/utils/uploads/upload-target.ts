import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { PART_SIZE_BYTES, partLayout, partSize } from '#shared/limits'
import type { UploadTarget } from '#shared/schemas/upload'
import { apiError } from '../http/errors'
import { useConfig } from '../config'
import { stagedKeyOf } from '../storage/keys'
import { useMediaStore } from '../storage/use-media-store'

/**
 * Where the guest sends an upload's bytes, freshly signed: one PUT URL, or one URL per part of a
 * multipart upload (all of them, or the `partNumbers` asked for).
 */
export async function signUploadTarget(row: Pick<UploadRow, 'storageKey' | 'contentType' | 'size' | 'multipartUploadId'>, partNumbers?: number[]): Promise<{ upload: UploadTarget, expiresAt: string }> {
  const store = useMediaStore()
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const expiresAt = new Date(Date.now() + ttl * 1000).toISOString()
  if (!row.multipartUploadId) {
    // To staging: confirm moves the bytes where they are served (promoteStaged).
    const { url, headers } = await store.presignPut(stagedKeyOf(row.storageKey), { contentType: row.contentType, contentLength: row.size, expiresIn: ttl })
    return { expiresAt, upload: { type: 'single', method: 'PUT', url, headers } }
  }
  const { partCount } = partLayout(row.size)
  const numbers = partNumbers ?? Array.from({ length: partCount }, (_, index) => index + 1)
  const invalid = numbers.filter(n => n > partCount)
  if (invalid.length) {
    throw apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', { issues: [{ path: ['partNumbers'], message: `this upload has ${partCount} parts` }] })
  }
  const parts = await Promise.all([...new Set(numbers)].sort((a, b) => a - b).map(async partNumber => ({
    partNumber,
    size: partSize(row.size, partNumber),
    url: await store.presignPart(row.storageKey, row.multipartUploadId!, partNumber, partSize(row.size, partNumber), ttl),
  })))
  return { expiresAt, upload: { type: 'multipart', partSize: PART_SIZE_BYTES, parts } }
}
