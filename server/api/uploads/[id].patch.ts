import { idParamsSchema } from '#shared/schemas/common'
import { guestUploadPatchSchema } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'

/** The sending device corrects its upload's name or message, with its undo token, while its window lasts. */
export default defineEventHandler(async (event) => {
  await limitUploads(event, 'undo')
  const { id } = await readParamsAs(event, idParamsSchema)
  const patch = await readBodyAs(event, guestUploadPatchSchema)
  return editOwnUpload(id, getHeader(event, UNDO_TOKEN_HEADER), patch)
})
