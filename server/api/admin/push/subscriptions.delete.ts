import { pushUnsubscribeSchema } from '#shared/schemas/notify'

/** This device stops hearing of batches (also when it was not subscribed). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const { endpoint } = await readBodyAs(event, pushUnsubscribeSchema)
  await removePushSubscription(endpoint)
  setResponseStatus(event, 204)
  return null
})
