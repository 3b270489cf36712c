import { idParamsSchema } from '#shared/schemas/common'
import { commentPostSchema } from '#shared/schemas/reactions'

/** A guest's comment under a gallery picture (docs/api.md, "Hearts and comments"). */
export default defineEventHandler(async (event) => {
  await limitReactions(event, 'comment')
  const { id } = await readParamsAs(event, idParamsSchema)
  const body = await readBodyAs(event, commentPostSchema)
  await requireGalleryAccess(event)
  await assertChallenge(body.challengeToken, clientKey(event))
  // `comment` is what the couple's notifications announce (kind "comment"), pending or not.
  const { answer } = await createComment(id, body)
  setResponseStatus(event, 201)
  return answer
})
