import { idParamsSchema } from '#shared/schemas/common'
import { emptyBodySchema } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'

/** A guest's undo: the device that sent the upload removes it, within the window, with its token. */
export default defineEventHandler(async (event) => {
  await limitUploads(event, 'undo')
  const { id } = await readParamsAs(event, idParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  return undoUpload(id, getHeader(event, UNDO_TOKEN_HEADER))
})
