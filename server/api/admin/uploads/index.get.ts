import { adminUploadsQuerySchema } from '#shared/schemas/admin'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = await readQueryAs(event, adminUploadsQuerySchema)
  return listAdminUploads(query)
})
