import { emptyBodySchema } from '#shared/schemas/upload'

/** A new webhook secret; what was signed with the old one no longer verifies. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  await readBodyAs(event, emptyBodySchema)
  const { notifySecret } = await rotateNotifySecret()
  return { notifySecret }
})
