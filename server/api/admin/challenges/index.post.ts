import { challengeCreateSchema } from '#shared/schemas/challenges'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const body = await readBodyAs(event, challengeCreateSchema)
  const created = await createChallenge(body)
  setResponseStatus(event, 201)
  return created
})
