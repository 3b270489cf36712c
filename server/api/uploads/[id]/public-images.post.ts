import { idParamsSchema } from '#shared/schemas/common'
import { publicImagesSchema } from '#shared/schemas/public-images'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'init')
  const { id } = await readParamsAs(event, idParamsSchema)
  const declared = await readBodyAs(event, publicImagesSchema)
  return watchStorage(signPhoneImageUploads(id, declared))
})
