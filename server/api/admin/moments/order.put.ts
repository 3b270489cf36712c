import { momentOrderSchema } from '#shared/schemas/moments'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { ids } = await readBodyAs(event, momentOrderSchema)
  return reorderMoments(ids)
})
