import { idParamsSchema } from '#shared/schemas/common'
import { refreshUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'refresh')
  const { id } = await readParamsAs(event, idParamsSchema)
  const { partNumbers } = await readBodyAs(event, refreshUploadSchema)
  return refreshUpload(id, partNumbers)
})
