/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core/types'
import type { GalleryItem, GalleryPage } from '#shared/schemas/gallery'
import { forgetGalleryWhenRefused } from './gallery-closing'
import { mediaAddresses, removedFromAnswer, withoutItems } from './gallery-removals'
import { answersOf, API_CACHE, CACHED_ANSWERS, isAppPage, isPublicImage, MEDIA_CACHE, SHELL_PATH } from './addresses'
import { forgetPrivateMedia, keepMedia, keptGalleryAnswers } from './media-keeping'
import { byteBudget } from './media-budget'
import { offlineShellResponse } from './offline-shell'
import { answerWithin, withinMs } from './timeouts'
import { listenForUploadSync } from './upload-sync'
import { listenForAdminPush } from './admin-push'

/**
 * The service worker of the venue screen and the guests' pages. What it keeps:
 * - the app's scripts, styles, fonts and icons, and a client-only shell of the app (precached,
 *   one revision per build); a navigation to a guest page or the slideshow goes to the network,
 *   and to the shell when the network fails;
 * - the public answers the pages poll (event, gallery, the QR code), network first, the last
 *   answer as the fallback;
 * - the gallery's images (display images, thumbnails, posters), cache first: their addresses are
 *   immutable; the gallery's answers and images are forgotten when it answers 401 or 403
 *   (gallery-closing.ts).
 * The admin stays online-only: nothing an admin page asks for, and no admin page, enters a cache.
 * It also sends a guest's queued uploads when the network returns, with the tab closed
 * (Background Sync, upload-sync.ts), and shows the admin's push notifications (admin-push.ts).
 */
declare let self: ServiceWorkerGlobalScope

/**
 * The gallery's images kept, by count: the slideshow rotates the newest 300 (SLIDESHOW_POOL_MAX),
 * their display images and a thumbnail or poster each, and the gallery's thumbnails; the least
 * recently used go first.
 */
const MEDIA_MAX_ENTRIES = 700
/**
 * And by size: 300 display images of real phone photos (2048 px, 300–600 KB each) and their
 * thumbnails fit; a screen whose browser gives less room drops the media cache on a quota error.
 */
const MEDIA_MAX_BYTES = 250 * 1024 * 1024
/**
 * A venue network that hangs rather than fails: the cached answer after this long, and the fetch
 * abandoned (its connection let go) soon after.
 */
const NETWORK_TIMEOUT_SECONDS = 4
const ANSWER_ABORT_MS = 6000
/** A navigation with no answer by then opens the offline shell. */
const NAVIGATION_TIMEOUT_MS = 4000
/** An image whose answer has not begun by then is given up (the slide is skipped); a slow one may take this long in all. */
const MEDIA_ANSWER_MS = 5000
const MEDIA_WHOLE_MS = 45_000

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
// The first worker serves the page that installed it at once; a later one waits for the page's
// word (see 'message'), so a running slideshow is never switched mid-photo. The pages open
// while it installs got their answers without it: it fetches them for itself.
self.addEventListener('install', (event) => {
  if (!self.registration.active) void self.skipWaiting()
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    const addresses = new Set(['/api/event', ...windows.flatMap(window => answersOf(new URL(window.url)))])
    return keepAnswers(event, [...addresses])
  }))
})
clientsClaim()

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

listenForUploadSync(self)
listenForAdminPush(self)

/** Nothing asked by an admin page (or for one) is handled here, let alone cached. */
function fromAdmin(request: Request): boolean {
  try {
    return new URL(request.referrer).pathname.startsWith('/admin')
  }
  catch {
    return false
  }
}

const sameOrigin = (url: URL) => url.origin === self.location.origin

/** Marks an answer served from the cache, for the page's offline notice. */
const markOfflineCopy: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return null
    const headers = new Headers(cachedResponse.headers)
    headers.set('x-offline-copy', '1')
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers })
  },
}

/**
 * A cache must never bring back what an admin removed: when a fresh gallery answer no longer
 * holds an item an earlier answer held in the range the fresh one covers, its images leave the
 * media cache and it leaves every gallery answer kept. A first page (no cursor) covers the newest
 * items down to its last one, whatever address the earlier answer had (the gallery's 24, the
 * slideshow's 100) of the same list (the whole gallery, or one moment's or challenge's); a further
 * page is compared with the earlier answer to its own address.
 */
const evictRemoved: WorkboxPlugin = {
  cacheDidUpdate: async ({ request, oldResponse, newResponse }) => {
    const url = new URL(request.url)
    if (url.pathname !== '/api/gallery') return
    const fresh = await newResponse.clone().json() as GalleryPage
    const earlier: GalleryPage[] = oldResponse ? [await oldResponse.json() as GalleryPage] : []
    // Only answers of the same list: a moment's or a challenge's page holds none of the others' items.
    const sameList = (other: URL) => ['moment', 'challenge'].every(name => other.searchParams.get(name) === url.searchParams.get(name))
    if (!url.searchParams.has('cursor')) earlier.push(...await keptGalleryAnswers(sameList))
    const removed = new Map(earlier.flatMap(before => removedFromAnswer(before, fresh)).map(item => [item.id, item]))
    if (removed.size) await evict([...removed.values()])
  },
}

async function evict(removed: GalleryItem[]) {
  const media = await caches.open(MEDIA_CACHE)
  await Promise.all(mediaAddresses(removed).map(address => media.delete(address)))
  const gone = new Set(removed.map(item => item.id))
  const answers = await caches.open(API_CACHE)
  for (const request of await answers.keys()) {
    if (new URL(request.url).pathname !== '/api/gallery') continue
    const kept = await answers.match(request)
    if (!kept) continue
    const page = await kept.clone().json() as GalleryPage
    const pruned = withoutItems(page, gone)
    if (pruned !== page) await answers.put(request, new Response(JSON.stringify(pruned), { headers: kept.headers }))
  }
}

const publicAnswers = new NetworkFirst({
  cacheName: API_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [answerWithin(ANSWER_ABORT_MS), new ExpirationPlugin({ maxEntries: 60 }), markOfflineCopy, evictRemoved, forgetGalleryWhenRefused(self.location.origin)],
})

/** Tells the page whether its answer came from the network or from the cache. */
async function tellPage(clientId: string, offline: boolean) {
  const client = clientId ? await self.clients.get(clientId) : undefined
  client?.postMessage({ type: 'answer-source', offline })
}

registerRoute(
  ({ url, request }) => sameOrigin(url) && CACHED_ANSWERS.has(url.pathname) && !fromAdmin(request),
  async ({ event, request }: RouteHandlerCallbackOptions) => {
    const fetchEvent = event as FetchEvent
    const response = await publicAnswers.handle({ event: fetchEvent, request }).catch((error: unknown) => {
      void tellPage(fetchEvent.clientId, true)
      throw error
    })
    if (new URL(request.url).pathname !== '/api/qrcode') void tellPage(fetchEvent.clientId, response.headers.has('x-offline-copy'))
    return response
  },
)

/** Only what came back whole (or opaque, from a bucket on another origin) is kept. */
const keepOkOrOpaque: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (response.status === 200 || response.type === 'opaque' ? response : null),
}

const galleryMedia = new CacheFirst({
  cacheName: MEDIA_CACHE,
  plugins: [answerWithin(MEDIA_ANSWER_MS, MEDIA_WHOLE_MS), keepOkOrOpaque, new ExpirationPlugin({ maxEntries: MEDIA_MAX_ENTRIES, purgeOnQuotaError: true }), byteBudget(MEDIA_MAX_BYTES)],
})

/** Whether a fetch comes from an admin page, by the page itself (a referrer may be cut to the origin). */
async function askedByAdmin(event: FetchEvent): Promise<boolean> {
  const client = event.clientId ? await self.clients.get(event.clientId) : undefined
  return !!client && new URL(client.url).pathname.startsWith('/admin')
}

// Only public images, by their address (isPublicImage): never an original, never a signed URL.
registerRoute(
  ({ url, request }) => request.destination === 'image' && !fromAdmin(request) && isPublicImage(url),
  async ({ event, request }: RouteHandlerCallbackOptions) => {
    const fetchEvent = event as FetchEvent
    // What an admin page shows (pending items' images among them) stays out of the cache.
    if (await askedByAdmin(fetchEvent)) return fetch(request)
    return galleryMedia.handle({ event: fetchEvent, request })
  },
)

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string, urls?: unknown } | null
  // The slideshow's whole rotation, saved ahead of its turn, so the screen loops it offline.
  if (data?.type === 'keep-media' && Array.isArray(data.urls)) {
    const urls = data.urls.filter((url): url is string => typeof url === 'string')
    const store = async (request: Request) => {
      const [response, stored] = galleryMedia.handleAll({ event, request })
      stored.catch(() => undefined)
      // Only the cache wants the bytes; the copy it reads goes on.
      void (await response).body?.cancel()
      await stored
    }
    event.waitUntil(keepMedia(urls, store, self.location.origin))
  }
  // An admin logged out: nothing but the public gallery's images stays.
  if (data?.type === 'forget-private-media') event.waitUntil(forgetPrivateMedia())
})

/** Fetches answers into the cache that a page got in its server render, not through the worker. */
async function keepAnswers(event: ExtendableEvent, addresses: string[]) {
  await Promise.all(addresses.map(address => publicAnswers.handle({ event, request: new Request(address) }).catch(() => undefined)))
}

registerRoute(
  ({ url, request }) => request.mode === 'navigate' && sameOrigin(url) && isAppPage(url),
  async ({ event, request, url }: RouteHandlerCallbackOptions) => {
    const fetchEvent = event as FetchEvent
    let failed: Response | undefined
    try {
      const response = await withinMs(fetch(request), NAVIGATION_TIMEOUT_MS)
      // A server that is down behind a working network (a proxy's 502) is offline too.
      if (response.status < 500) {
        fetchEvent.waitUntil(keepAnswers(fetchEvent, answersOf(url)))
        return response
      }
      failed = response
    }
    catch { /* the network failed or hangs: the shell below */ }
    const shell = await matchPrecache(SHELL_PATH)
    return shell ? offlineShellResponse(shell, url) : (failed ?? Response.error())
  },
)
