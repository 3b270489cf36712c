import { momentCreateSchema } from '#shared/schemas/moments'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const body = await readBodyAs(event, momentCreateSchema)
  const created = await createMoment(body)
  setResponseStatus(event, 201)
  return created
})
