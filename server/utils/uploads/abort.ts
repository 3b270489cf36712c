import { and, eq, isNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'

/**
 * Removes the bytes, then the record, of an upload never confirmed: aborted, failing its checks,
 * or abandoned (the sweeper). In that order: a crash in between leaves an unconfirmed record, which
 * the sweeper finds; storage that refuses leaves a pending deletion, which the sweeper retries.
 */
export async function discardUpload(row: UploadRow): Promise<void> {
  await deleteOwnedObjects(row)
  await useDb().delete(uploads).where(and(eq(uploads.id, row.id), isNull(uploads.confirmedAt)))
}

export async function abortUpload(id: string) {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  await discardUpload(row)
  return { id, aborted: true as const }
}
