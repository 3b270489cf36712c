import { adminUploadPatchSchema } from '#shared/schemas/admin'
import { idParamsSchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  const patch = await readBodyAs(event, adminUploadPatchSchema)
  return patchUpload(id, patch)
})
