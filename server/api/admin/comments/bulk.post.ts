import { commentBulkSchema } from '#shared/schemas/reactions'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const body = await readBodyAs(event, commentBulkSchema)
  return bulkComments(body)
})
