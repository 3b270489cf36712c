import { idParamsSchema } from '#shared/schemas/common'
import { emptyBodySchema } from '#shared/schemas/upload'

/** This device hearts a gallery picture (docs/api.md, "Hearts and comments"). */
export default defineEventHandler(async (event) => {
  await limitReactions(event, 'heart')
  const { id } = await readParamsAs(event, idParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  await requireGalleryAccess(event)
  return setHeart(id, ensureGuestId(event), true)
})
