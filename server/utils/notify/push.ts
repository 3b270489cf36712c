import { eq } from 'drizzle-orm'
import webPush from 'web-push'
import { pushSubscriptions } from '../../../db/schema'
import type { PushSubscriptionJson } from '#shared/schemas/notify'
import { useConfig } from '../config'
import { useDb } from '../db'
import { NOTIFY_TYPE, type NotifyMessage } from './formats'
import { safePost } from './safe-post'
import { vapidKeys } from './state'

/** How long a push service keeps a notification for a device that is off. */
const PUSH_TTL_SECONDS = 24 * 3600

export async function addPushSubscription(subscription: PushSubscriptionJson): Promise<void> {
  const row = { endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, createdAt: new Date() }
  await useDb().insert(pushSubscriptions).values(row)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { p256dh: row.p256dh, auth: row.auth } })
}

export async function removePushSubscription(endpoint: string): Promise<void> {
  await useDb().delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint))
}

export async function hasPushSubscriptions(): Promise<boolean> {
  return !!await useDb().select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).limit(1).get()
}

/**
 * Pushes one batch to each of the admin's devices (RFC 8291 aes128gcm, VAPID). web-push encrypts
 * and signs; the request goes through our own sender, which refuses link-local addresses as for
 * the webhook and takes the http endpoints of a push service on loopback. A 404 or 410 says the
 * browser dropped the subscription: it is forgotten. Other failures wait for the next batch.
 */
export async function pushToSubscriptions(message: NotifyMessage): Promise<void> {
  const subscriptions = await useDb().select().from(pushSubscriptions).all()
  if (subscriptions.length === 0) return
  const keys = await vapidKeys()
  const payload = JSON.stringify({ type: NOTIFY_TYPE, pending: message.pending, title: message.title, body: message.body, url: message.adminUrl })
  const vapidDetails = { subject: `mailto:${useConfig().ALLOWED_ADMIN_EMAILS[0]}`, ...keys }
  await Promise.all(subscriptions.map(async (subscription) => {
    try {
      const details = webPush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        { vapidDetails, contentEncoding: 'aes128gcm', TTL: PUSH_TTL_SECONDS },
      )
      const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]))
      const status = await safePost(details.endpoint, headers, details.body!)
      if (status === 404 || status === 410) await removePushSubscription(subscription.endpoint)
      else if (status >= 300) console.warn('[notify] push service answered', status)
    }
    catch (error) {
      console.warn('[notify] push failed:', error instanceof Error ? error.message : error)
    }
  }))
}
