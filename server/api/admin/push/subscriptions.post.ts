import { pushSubscriptionSchema } from '#shared/schemas/notify'

/** This device hears of each batch (the browser's PushSubscription); subscribing again refreshes its keys. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const subscription = await readBodyAs(event, pushSubscriptionSchema)
  await addPushSubscription(subscription)
  setResponseStatus(event, 201)
  return { endpoint: subscription.endpoint }
})
