import { bulkActionSchema } from '#shared/schemas/admin'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const body = await readBodyAs(event, bulkActionSchema)
  return bulkUploads(body)
})
