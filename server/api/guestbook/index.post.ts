import { guestbookPostSchema } from '#shared/schemas/guestbook'

export default defineEventHandler(async (event) => {
  await limitGuestbook(event, 'post')
  const body = await readBodyAs(event, guestbookPostSchema)
  await assertChallenge(body.challengeToken, clientKey(event))
  const created = await postGuestbookMessage(body)
  setResponseStatus(event, 201)
  return created
})
