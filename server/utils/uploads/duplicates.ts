import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type { DuplicateUploadResponse, InitUploadBody } from '#shared/schemas/upload'
import { useDb } from '../db'
import { apiError } from '../http/errors'
import { useMediaStore } from '../storage/use-media-store'
import { discardUpload } from './abort'

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

/**
 * The hash init declared must be the stored bytes' before anything on the server rewrites them
 * (a video's location is blanked next), or a false one could later answer "already sent" for
 * another guest's photo. Checked where the driver proves it cheaply (`sha256Of`: one read on the
 * local disk); where it cannot, the declared hash is trusted: all a false one can do is make a
 * later upload of those same exact bytes answer "already sent".
 */
export async function assertDeclaredHash(row: UploadRow): Promise<void> {
  if (!row.contentHash) return
  const storedHash = await useMediaStore().sha256Of(row.storageKey, row.size)
  if (storedHash === null || storedHash === row.contentHash) return
  await discardUpload(row)
  throw apiError(422, ErrorCode.CONTENT_MISMATCH, 'Content mismatch', { declaredHash: row.contentHash, storedHash })
}
