import { sendStream } from 'h3'
import { idParamsSchema } from '#shared/schemas/common'

/** One approved item's public file as an attachment, when the couple allows guests' downloads. */
export default defineEventHandler(async (event) => {
  const settings = await requireGuestDownloads(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  const row = await findUpload(id).catch(() => null)
  const key = row?.status === 'approved' && row.confirmedAt ? publicFileKey(row) : null
  if (!row || !key) throw notFound()
  const store = useMediaStore()
  const stored = await store.head(key)
  if (!stored) throw notFound()
  setResponseHeaders(event, {
    'content-type': contentTypeOfKey(key),
    'content-length': stored.size,
    'content-disposition': attachmentDisposition(downloadFileName(settings.coupleNames, row, key)),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  })
  return sendStream(event, await store.read(key))
})
