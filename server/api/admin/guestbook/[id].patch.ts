import { idParamsSchema } from '#shared/schemas/common'
import { adminGuestbookPatchSchema } from '#shared/schemas/guestbook'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { id } = await readParamsAs(event, idParamsSchema)
  const patch = await readBodyAs(event, adminGuestbookPatchSchema)
  return patchGuestbookEntry(id, patch)
})
