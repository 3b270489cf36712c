import { challengeOrderSchema } from '#shared/schemas/challenges'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { ids } = await readBodyAs(event, challengeOrderSchema)
  return reorderChallenges(ids)
})
