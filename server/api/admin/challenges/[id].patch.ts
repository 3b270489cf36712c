import { challengePatchSchema } from '#shared/schemas/challenges'
import { idParamsSchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  const patch = await readBodyAs(event, challengePatchSchema)
  return patchChallenge(id, patch)
})
