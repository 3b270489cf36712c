import type { GalleryItem, GalleryPage } from '#shared/schemas/gallery'
import { newestFirst } from '#shared/cursor-merge'

/**
 * What left the gallery between two answers to the same `/api/gallery` address: an answer is the
 * truth from its first item down to its last one (or to the end, when it has no next cursor), as
 * the page's own merge reads it (shared/cursor-merge.ts). An item the older answer held
 * in that range and the newer one does not was rejected or deleted; one that only slid below the
 * newer answer's last item (pushed down by new approvals) did not leave.
 */
export function removedFromAnswer(before: GalleryPage, after: GalleryPage): GalleryItem[] {
  const kept = new Set(after.items.map(item => item.id))
  const last = after.items.at(-1)
  return before.items.filter((item) => {
    if (kept.has(item.id)) return false
    if (after.nextCursor === null) return true
    return last !== undefined && newestFirst(item, last) <= 0
  })
}

/** The addresses of an item's media that a cache may hold (display image or video, poster or thumbnail). */
export function mediaAddresses(items: GalleryItem[]): string[] {
  return items.flatMap(item => [item.url, item.thumbUrl, item.thumb2xUrl]).filter((url): url is string => !!url)
}

/** `page` without the items whose id is in `gone`; the same object when none of them is in it. */
export function withoutItems(page: GalleryPage, gone: Set<string>): GalleryPage {
  const items = page.items.filter(item => !gone.has(item.id))
  return items.length === page.items.length ? page : { ...page, items }
}
