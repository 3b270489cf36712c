import { ErrorCode } from '#shared/errors'

/** New signed URLs for an upload not confirmed yet: how the upload page resumes hours later. */
export async function refreshUpload(id: string, partNumbers?: number[]) {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (!row.multipartUploadId && row.partCount) {
    // Parts already joined by a confirm that then failed its checks: nothing left to send.
    throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  }
  return { id, status: row.status, kind: row.kind, ...(await signUploadTarget(row, row.multipartUploadId ? partNumbers : undefined)) }
}
