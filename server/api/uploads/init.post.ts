import { initUploadSchema } from '#shared/schemas/upload'

export default defineEventHandler(async (event) => {
  deferDerivationsWhileAnswering(event)
  await limitUploads(event, 'init')
  const body = await readBodyAs(event, initUploadSchema)
  await assertChallenge(body.challengeToken, clientKey(event))
  answeringInit(event)
  // The device's cookie comes with its first init, whatever that init answers.
  const guestId = ensureGuestId(event)
  // One reading of the configuration for the whole init: each reading costs a query of the counters.
  const settings = await getEventSettings()
  // The same bytes already sent for this event: that upload (200), nothing new stored. While the
  // gallery is not open to this client, only a copy this device sent counts (duplicates.ts).
  const earlier = body.hash ? await findSentCopy(body, await seesGallery(event, settings) ? null : guestId) : null
  if (earlier) return earlier
  // This file's init came before (its answer lost, or the phone's other sender first): that upload, 200.
  const again = await replayInit(body)
  if (again) return again
  const { answer, created } = await watchStorage(initUpload(body, guestId, settings))
  setResponseStatus(event, created ? 201 : 200)
  return answer
})
