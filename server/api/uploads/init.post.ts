import { initUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'init')
  const body = await readBodyAs(event, initUploadSchema)
  await assertChallenge(body.challengeToken, clientKey(event))
  // The same bytes already sent for this event: that upload (200), nothing new stored.
  const earlier = await findSentCopy(body)
  if (earlier) return earlier
  const created = await watchStorage(initUpload(body))
  setResponseStatus(event, 201)
  return created
})
