import { initUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  await limitUploads(event, 'init')
  const body = await readBodyAs(event, initUploadSchema)
  await assertChallenge(body.challengeToken, clientKey(event))
  const created = await watchStorage(initUpload(body))
  setResponseStatus(event, 201)
  return created
})
