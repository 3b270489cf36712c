import { orderSchema } from '#shared/schemas/common'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { ids } = await readBodyAs(event, orderSchema)
  return reorderChallenges(ids)
})
