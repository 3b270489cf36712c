/// <reference lib="webworker" />
import type { GalleryPage } from '#shared/schemas/gallery'
import { API_CACHE, isPublicImage, MEDIA_CACHE } from './addresses'
import { mediaAddresses } from './gallery-removals'

/**
 * The slideshow's rotation saved ahead of its turn (the page sends the display image or poster of
 * every item it rotates, as soon as it lists them), and the admin's leftovers forgotten at logout.
 */

/** Two at a time: the saving never takes all of the browser's connections from the slides. */
const AT_ONCE = 2
/** Images that found no answer in a row: the network is gone, the rest waits for the next list. */
const GIVE_UP_AFTER = 2

const waiting = new Set<string>()
let running: Promise<void> | undefined

/** The gallery answers kept for offline, every page of them (or those `keep` picks by address). */
export async function keptGalleryAnswers(keep: (url: URL) => boolean = () => true): Promise<GalleryPage[]> {
  const answers = await caches.open(API_CACHE)
  const pages: GalleryPage[] = []
  for (const request of await answers.keys()) {
    const url = new URL(request.url)
    if (url.pathname !== '/api/gallery' || !keep(url)) continue
    const kept = await answers.match(request)
    if (kept) pages.push(await kept.json() as GalleryPage)
  }
  return pages
}

async function tellPages(): Promise<void> {
  const windows = await (self as unknown as ServiceWorkerGlobalScope).clients.matchAll({ type: 'window' })
  for (const window of windows) window.postMessage({ type: 'media-kept' })
}

/**
 * Fetches into the media cache those of `urls` it does not hold yet (public images only), through
 * `store` (the media route's strategy, with its time limits and budget). A run already going takes
 * them over.
 */
export function keepMedia(urls: string[], store: (request: Request) => Promise<void>, origin: string): Promise<void> {
  for (const url of urls) {
    try {
      if (isPublicImage(new URL(url, origin))) waiting.add(new URL(url, origin).href)
    }
    catch { /* not an address */ }
  }
  running ??= run(store, origin).finally(() => {
    running = undefined
  })
  return running
}

async function run(store: (request: Request) => Promise<void>, origin: string): Promise<void> {
  const media = await caches.open(MEDIA_CACHE)
  let unanswered = 0
  const next = async (): Promise<void> => {
    while (waiting.size && unanswered < GIVE_UP_AFTER) {
      const url = waiting.values().next().value as string
      waiting.delete(url)
      if (await media.match(url)) continue
      const sameOrigin = new URL(url).origin === origin
      try {
        // As an <img> asks: a bucket on another origin answers opaque, which an image may still show.
        await store(new Request(url, { mode: sameOrigin ? 'same-origin' : 'no-cors', credentials: sameOrigin ? 'same-origin' : 'omit' }))
        unanswered = 0
        await tellPages()
      }
      catch {
        unanswered++
      }
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, next))
  waiting.clear()
}

/**
 * Keeps only the images of items the public gallery lists: whatever else an admin page brought
 * into the cache (an item still pending, a rejected one) goes.
 */
export async function forgetPrivateMedia(): Promise<void> {
  const listed = new Set(mediaAddresses((await keptGalleryAnswers()).flatMap(page => page.items)))
  const media = await caches.open(MEDIA_CACHE)
  for (const request of await media.keys()) {
    if (!listed.has(request.url) || !isPublicImage(new URL(request.url))) await media.delete(request)
  }
}
