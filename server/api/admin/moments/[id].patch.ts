import { idParamsSchema } from '#shared/schemas/common'
import { momentPatchSchema } from '#shared/schemas/moments'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  const patch = await readBodyAs(event, momentPatchSchema)
  return patchMoment(id, patch)
})
