import { ErrorCode } from '#shared/errors'
import { liveClaim } from './claim'

/** New signed URLs for an upload not confirmed yet: how the upload page resumes hours later. */
export async function refreshUpload(id: string, partNumbers?: number[]) {
  const row = await findUpload(id)
  // Being confirmed (the page asked, then was reloaded before the answer came): a PUT to fresh URLs
  // would only meet the claim (409), so the sender is sent to confirm, which waits for this one's answer.
  if (row.confirmedAt || liveClaim(row) === 'confirm') throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (liveClaim(row) === 'abort') throw notFound()
  if (!row.multipartUploadId && row.partCount) {
    // Parts already joined by a confirm that then failed its checks: nothing left to send.
    throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  }
  return { id, status: row.status, kind: row.kind, ...(await signUploadTarget(row, row.multipartUploadId ? partNumbers : undefined)) }
}
