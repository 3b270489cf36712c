import { idParamsSchema } from '#shared/schemas/common'
import { commentPostSchema } from '#shared/schemas/reactions'

/** A guest's comment under a gallery picture (docs/api.md, "Hearts and comments"). */
export default defineEventHandler(async (event) => {
  await limitReactions(event, 'comment')
  const { id } = await readParamsAs(event, idParamsSchema)
  const body = await readBodyAs(event, commentPostSchema)
  await requireGalleryAccess(event)
  await assertChallenge(body.challengeToken, clientKey(event))
  const { comment, answer } = await createComment(id, body)
  announceNewItem({ id: comment.id, kind: 'comment', author: comment.author, status: comment.status })
  setResponseStatus(event, 201)
  return answer
})
