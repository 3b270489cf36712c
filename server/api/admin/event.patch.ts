import { eventPatchSchema } from '#shared/schemas/event'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const patch = await readBodyAs(event, eventPatchSchema)
  return toAdminEventConfig(await updateEventSettings(patch))
})
