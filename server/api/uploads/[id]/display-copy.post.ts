import { idParamsSchema } from '#shared/schemas/common'
import { phoneCopyUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'init')
  const { id } = await readParamsAs(event, idParamsSchema)
  const { size } = await readBodyAs(event, phoneCopyUploadSchema)
  return watchStorage(signPhoneCopyUpload(id, size))
})
