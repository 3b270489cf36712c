import { commentParamsSchema } from '#shared/schemas/reactions'
import { emptyBodySchema } from '#shared/schemas/upload'
import { UNDO_TOKEN_HEADER } from '#shared/undo'

/** A guest's undo of a comment: the sending device, within the window, with its token. */
export default defineEventHandler(async (event) => {
  await limitReactions(event, 'comment-undo')
  const { id, commentId } = await readParamsAs(event, commentParamsSchema)
  await readBodyAs(event, emptyBodySchema)
  await undoComment(id, commentId, getHeader(event, UNDO_TOKEN_HEADER))
  setResponseStatus(event, 204)
  return null
})
