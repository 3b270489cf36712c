import { idParamsSchema } from '#shared/schemas/common'
import { emptyBodySchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  await deleteChallenge(id)
  setResponseStatus(event, 204)
  return null
})
