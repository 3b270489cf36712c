import { guestbookBulkSchema } from '#shared/schemas/guestbook'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const body = await readBodyAs(event, guestbookBulkSchema)
  return bulkGuestbook(body)
})
