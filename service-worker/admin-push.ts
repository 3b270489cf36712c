/// <reference lib="webworker" />

/** What the server pushes for each batch of new items (docs/api.md, Notifications). */
interface NewItemsPush {
  type: 'event-media.new'
  pending: number
  title: string
  body: string
  url: string
}

/** One notification at a time: a newer batch replaces the one still showing. */
const NOTIFICATION_TAG = 'event-media.new'

/**
 * The admin's device hears of new items with the admin closed: the worker shows the notification
 * and, on a tap, focuses an open admin or opens one. The badge follows the pending count where
 * the platform has one (an installed app).
 */
export function listenForAdminPush(self: ServiceWorkerGlobalScope): void {
  self.addEventListener('push', (event) => {
    let push: NewItemsPush | null = null
    try {
      push = event.data?.json() as NewItemsPush
    }
    catch {
      return
    }
    if (push?.type !== 'event-media.new') return
    const badge = (self.navigator as Navigator & { setAppBadge?: (count?: number) => Promise<void> }).setAppBadge
    event.waitUntil(Promise.all([
      self.registration.showNotification(push.title, { body: push.body, tag: NOTIFICATION_TAG, icon: '/icons/icon-192.png', data: { url: push.url } }),
      badge ? badge.call(self.navigator, push.pending).catch(() => undefined) : undefined,
    ]))
  })

  self.addEventListener('notificationclick', (event) => {
    event.notification.close()
    const target = (event.notification.data as { url?: string } | null)?.url ?? '/admin'
    event.waitUntil((async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const admin = windows.find(client => new URL(client.url).pathname.startsWith('/admin'))
      if (admin) await admin.focus()
      else await self.clients.openWindow(target)
    })())
  })
}
