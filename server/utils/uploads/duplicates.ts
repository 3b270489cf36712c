import { createHash } from 'node:crypto'
import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type { DuplicateUploadResponse, InitUploadBody } from '#shared/schemas/upload'

/**
 * The same bytes are stored once per event: a guest re-sending a photo (picked twice, or again
 * after a failure) is told it is there already. Only confirmed uploads count, rejected ones too
 * (the couple has seen them); deleted, aborted and swept ones are gone from the table, so they do not.
 */
export async function findSentCopy(body: Pick<InitUploadBody, 'hash' | 'size'>): Promise<DuplicateUploadResponse | null> {
  if (!body.hash) return null
  // `confirmed_at IS NOT NULL` spelled out, so that SQLite serves this from the partial index.
  const earlier = await useDb().select({ id: uploads.id, kind: uploads.kind }).from(uploads)
    .where(and(eq(uploads.contentHash, body.hash), isNotNull(uploads.confirmedAt), eq(uploads.size, body.size)))
    .limit(1).get()
  return earlier ? { id: earlier.id, kind: earlier.kind, duplicate: true } : null
}

async function sha256Of(key: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of await useMediaStore().read(key)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/**
 * The hash init declared must be the stored bytes' before anything on the server rewrites them
 * (a video's location is blanked next), or a false one could later answer "already sent" for
 * another guest's photo. Checked where storage proves it cheaply: on the local disk, one read of
 * the file. On S3 it would mean downloading every object again (a checksum header on the presigned
 * PUT could prove it instead, but multipart checksums are per part and the test storage, s3rver,
 * keeps none), so there the declared hash is trusted: all a false one can do is make a later
 * upload of those same exact bytes answer "already sent".
 */
export async function assertDeclaredHash(row: UploadRow): Promise<void> {
  if (!row.contentHash || useMediaStore().driver !== 'local') return
  const storedHash = await sha256Of(row.storageKey)
  if (storedHash === row.contentHash) return
  await discardUpload(row)
  throw apiError(422, ErrorCode.CONTENT_MISMATCH, 'Content mismatch', { declaredHash: row.contentHash, storedHash })
}
