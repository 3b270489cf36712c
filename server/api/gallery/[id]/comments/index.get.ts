import { idParamsSchema } from '#shared/schemas/common'
import { commentsQuerySchema } from '#shared/schemas/reactions'

/** A gallery picture's approved comments, oldest first (docs/api.md, "Hearts and comments"). */
export default defineEventHandler(async (event) => {
  const { id } = await readParamsAs(event, idParamsSchema)
  const query = await readQueryAs(event, commentsQuerySchema)
  await requireGalleryAccess(event)
  setResponseHeader(event, 'cache-control', 'no-cache')
  return listComments(id, query)
})
