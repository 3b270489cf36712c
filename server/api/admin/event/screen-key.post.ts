import { emptyBodySchema } from '#shared/schemas/upload'

/** A new venue screen key; screens holding the old one see only what guests see. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  await readBodyAs(event, emptyBodySchema)
  const { screenKey } = await rotateScreenKey()
  return { screenKey }
})
