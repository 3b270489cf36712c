/**
 * A live list paged with the server's cursor (the gallery, the admin's moderation list), as plain
 * functions: no Vue, no timers, so each rule can be tested on its own. Kept in shared/ because
 * two builds read it: the pages (composables/cursor-list/) and the service worker, which evicts
 * removed photos by the same rules; shared/ is the room both import by one alias and that may
 * import neither of them.
 */

/**
 * What a live list holds: items with an id and a time. Items with media may carry its addresses
 * (a message or "my uploads" may carry none, or only a thumbnail): those are kept as shown.
 */
export interface Listed {
  id: string
  createdAt: string
  url?: string | null
  thumbUrl?: string | null
}

/** The media addresses a shown copy keeps when they name the same object as the fresh one. */
const MEDIA_ADDRESSES = ['url', 'thumbUrl'] as const

export interface CursorPage<T> {
  items: T[]
  nextCursor: string | null
}

/** How a live list is ordered, as the server pages it (a comparator for Array.sort). */
export type ListOrder<T> = (a: T, b: T) => number

/** The server's order: newest `createdAt` first, ties broken by id (descending). */
export function newestFirst(a: Pick<Listed, 'createdAt' | 'id'>, b: Pick<Listed, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  if (a.id === b.id) return 0
  return a.id < b.id ? 1 : -1
}

/** Appends a further page, never listing an item twice. */
export function appendPage<T extends Pick<Listed, 'id'>>(current: T[], page: CursorPage<T>): T[] {
  const known = new Set(current.map(item => item.id))
  return [...current, ...page.items.filter(item => !known.has(item.id))]
}

/** `list` with `item` put at its place in the list's order, newest first unless told (replacing an entry with its id). */
export function insertInOrder<T extends Pick<Listed, 'createdAt' | 'id'>>(list: T[], item: T, order: ListOrder<T> = newestFirst): T[] {
  const rest = list.filter(other => other.id !== item.id)
  const at = rest.findIndex(other => order(item, other) < 0)
  return at === -1 ? [...rest, item] : [...rest.slice(0, at), item, ...rest.slice(at)]
}

const withoutQuery = (url: string | null | undefined) => url?.split('?')[0] ?? null

function sameFields<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(b) as (keyof T)[]
  return Object.keys(a).length === keys.length && keys.every(key => a[key] === b[key])
}

/**
 * A fresh copy that keeps the media addresses already shown when they point at the same object:
 * a signed address changes on every answer, and a new `src` every few seconds would make the
 * browser download the picture again. When nothing else changed, the shown copy itself, so the
 * page has nothing to redraw.
 */
export function keepShownUrls<T extends Listed>(shown: T, fresh: T): T {
  const copy: T = { ...fresh }
  for (const key of MEDIA_ADDRESSES) {
    if (key in fresh && withoutQuery(shown[key]) === withoutQuery(fresh[key])) copy[key] = shown[key]
  }
  return sameFields(shown, copy) ? shown : copy
}

/**
 * Folds a fresh first page into the list shown (which may hold several pages). The page is the
 * truth for everything from the newest item down to its own last one: new items appear, changed
 * ones update, ones that left (rejected, deleted, moderated elsewhere) go. Older items, loaded
 * with "load more", stay, and so does the cursor after them. `reuseUrls(shown)` says whether the
 * addresses already shown for an item are still fresh enough to keep. `added` counts the items
 * the page brought that were not shown. `order` is the server's order for this list (newest first
 * unless told): under an order that moves items (most hearted first), an item the fresh page
 * holds is taken from it and never kept twice among the older ones.
 */
export function mergeFirstPage<T extends Listed>(
  current: CursorPage<T>,
  page: CursorPage<T>,
  reuseUrls: (shown: T) => boolean = () => true,
  order: ListOrder<T> = newestFirst,
): CursorPage<T> & { added: number } {
  const shown = new Map(current.items.map(item => [item.id, item]))
  const fresh = page.items.map((item) => {
    const before = shown.get(item.id)
    return before && reuseUrls(before) ? keepShownUrls(before, item) : item
  })
  const added = page.items.filter(item => !shown.has(item.id)).length
  // A last page holds every match: nothing older can be left.
  if (page.nextCursor === null) return { items: fresh, nextCursor: null, added }
  const last = page.items.at(-1)
  // An empty page that still has a cursor says nothing about what is shown.
  if (!last) return { items: current.items, nextCursor: current.nextCursor, added: 0 }
  const inPage = new Set(page.items.map(item => item.id))
  const older = current.items.filter(item => !inPage.has(item.id) && order(item, last) > 0)
  return older.length > 0
    ? { items: [...fresh, ...older], nextCursor: current.nextCursor, added }
    : { items: fresh, nextCursor: page.nextCursor, added }
}
