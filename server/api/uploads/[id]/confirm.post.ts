import { idParamsSchema } from '#shared/schemas/common'
import { emptyBodySchema } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'

export default defineEventHandler(async (event) => {
  deferDerivationsWhileAnswering(event)
  await limitUploads(event, 'confirm')
  const { id } = await readParamsAs(event, idParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  // The sending device shows its token: only it learns a confirmed upload's status now (uploads/confirm.ts).
  return watchStorage(confirmUpload(id, getHeader(event, UNDO_TOKEN_HEADER)))
})
