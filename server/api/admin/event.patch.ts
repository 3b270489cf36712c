import { eventPatchSchema } from '#shared/schemas/event'

export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const patch = await readBodyAs(event, eventPatchSchema)
  return adminEventConfig(await updateEventSettings(patch))
})
