import { and, eq, isNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { useDb } from '../db'
import { apiError, notFound } from '../http/errors'
import { deleteOwnedObjects } from '../storage/deletions'
import { claimUpload, liveClaim } from './claim'
import { findUpload } from './find'

/**
 * Removes the bytes, then the record, of an upload never confirmed: aborted, failing its checks,
 * or abandoned (the sweeper). In that order: a crash in between leaves an unconfirmed record, which
 * the sweeper finds; storage that refuses leaves a pending deletion, which the sweeper retries.
 */
export async function discardUpload(row: UploadRow): Promise<void> {
  await deleteOwnedObjects(row)
  await useDb().delete(uploads).where(and(eq(uploads.id, row.id), isNull(uploads.confirmedAt)))
}

/**
 * Only under the upload's claim (claim.ts), so that an abort racing a confirm either wins before
 * the confirm touches anything (the confirm then answers 404) or loses (409 ALREADY_CONFIRMED, the
 * upload and its bytes stay): never both 200 with the photo gone.
 */
export async function abortUpload(id: string) {
  const claimed = await claimUpload(id, 'abort')
  if (!claimed) {
    const row = await findUpload(id)
    if (row.confirmedAt || liveClaim(row) === 'confirm') throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
    // Another abort holds it: gone or going.
    throw notFound()
  }
  await discardUpload(claimed)
  return { id, aborted: true as const }
}
