import { idParamsSchema } from '#shared/schemas/common'
import { posterUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'init')
  const { id } = await readParamsAs(event, idParamsSchema)
  const { size } = await readBodyAs(event, posterUploadSchema)
  return signPosterUpload(id, size)
})
