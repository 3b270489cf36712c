import type { GalleryItem } from '#shared/schemas/gallery'
import { MEDIA_CACHE } from '../../service-worker/addresses'

/**
 * What the venue screen holds offline: the service worker keeps the rotation's images in its
 * media cache (service-worker/media-keeping.ts); the page asks it to save them and reads the
 * cache itself to know which items can show without the network.
 */

/** The image a slide needs offline: a photo's display image, a video's poster. */
export function stillOf(item: GalleryItem): string | null {
  return item.kind === 'photo' ? item.url : item.thumbUrl
}

/** Whether a service worker answers this page's requests (and so whether its cache is what shows offline). */
export function workerControlled(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller
}

/** The ids of `items` whose image is in the worker's media cache. */
export async function savedIds(items: GalleryItem[]): Promise<Set<string>> {
  const saved = new Set<string>()
  if (typeof caches === 'undefined' || !(await caches.has(MEDIA_CACHE))) return saved
  const media = await caches.open(MEDIA_CACHE)
  await Promise.all(items.map(async (item) => {
    const still = stillOf(item)
    if (still && await media.match(still)) saved.add(item.id)
  }))
  return saved
}

/** Asks the worker to save these items' images, ahead of their turn (it skips what it holds). */
export function askToSave(items: GalleryItem[]): void {
  const urls = items.map(stillOf).filter((url): url is string => !!url)
  if (!urls.length || typeof navigator === 'undefined' || !navigator.serviceWorker) return
  void navigator.serviceWorker.ready.then(registration => registration.active?.postMessage({ type: 'keep-media', urls }))
}
