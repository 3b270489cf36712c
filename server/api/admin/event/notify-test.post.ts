import type { NotifyTestResponse } from '#shared/schemas/notify'
import { emptyBodySchema } from '#shared/schemas/upload'

/** Sends a test notification now, outside any batch, and answers what the receiver said. */
export default defineEventHandler(async (event): Promise<NotifyTestResponse> => {
  await requireAdmin(event)
  await readBodyAs(event, emptyBodySchema)
  return sendTestNotification()
})
