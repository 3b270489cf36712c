import type { AdminUpload } from '../shared/schemas/admin'

export type AdminStatusFilter = 'pending' | 'approved' | 'rejected' | 'all'
export type AdminKindFilter = 'all' | 'photo' | 'video'

export interface AdminUploadFilters {
  status: AdminStatusFilter
  kind: AdminKindFilter
  q: string
}

/** The server's order: newest `createdAt` first, ties broken by id (descending). */
export function compareNewestFirst(a: Pick<AdminUpload, 'createdAt' | 'id'>, b: Pick<AdminUpload, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  if (a.id === b.id) return 0
  return a.id < b.id ? 1 : -1
}

/**
 * Whether an upload still belongs in a list with these filters after a local change. Only status
 * and kind are checked: a text search is left to the server, on the next refresh.
 */
export function matchesFilters(upload: Pick<AdminUpload, 'status' | 'kind'>, filters: Pick<AdminUploadFilters, 'status' | 'kind'>): boolean {
  return (filters.status === 'all' || upload.status === filters.status)
    && (filters.kind === 'all' || upload.kind === filters.kind)
}

/** `list` with `upload` put at its place in newest-first order (replacing an entry with its id). */
export function insertInOrder(list: AdminUpload[], upload: AdminUpload): AdminUpload[] {
  const rest = list.filter(item => item.id !== upload.id)
  const at = rest.findIndex(item => compareNewestFirst(upload, item) < 0)
  return at === -1 ? [...rest, upload] : [...rest.slice(0, at), upload, ...rest.slice(at)]
}

function withoutQuery(url: string | null): string | null {
  return url === null ? null : url.split('?')[0]!
}

/**
 * A fresh record that keeps the image addresses the page already shows when they point at the same
 * object: signed addresses change on every answer, and a new `src` every few seconds would make
 * the browser download every unprocessed original again.
 */
export function keepDisplayedUrls(shown: AdminUpload, fresh: AdminUpload): AdminUpload {
  return {
    ...fresh,
    url: withoutQuery(shown.url) === withoutQuery(fresh.url) ? shown.url : fresh.url,
    thumbUrl: withoutQuery(shown.thumbUrl) === withoutQuery(fresh.thumbUrl) ? shown.thumbUrl : fresh.thumbUrl,
  }
}

export interface MergedPage {
  items: AdminUpload[]
  nextCursor: string | null
}

/**
 * Folds a fresh first page into the list the admin is looking at (which may hold several pages).
 * The fresh page is the truth for everything from the newest item down to its own last item: new
 * uploads appear, changed ones update, ones that left the filter (moderated elsewhere, deleted)
 * go. Older items that were loaded with "load more" stay, and so does the cursor after them.
 * `reuseUrls(id)` says whether the addresses already shown for an item are still fresh enough.
 */
export function mergeNewestPage(
  current: MergedPage,
  page: MergedPage,
  reuseUrls: (id: string) => boolean = () => true,
): MergedPage {
  const shown = new Map(current.items.map(item => [item.id, item]))
  const fresh = page.items.map((item) => {
    const before = shown.get(item.id)
    return before && reuseUrls(item.id) ? keepDisplayedUrls(before, item) : item
  })
  const last = page.items.at(-1)
  // A last page holds every match: nothing older can be left.
  if (page.nextCursor === null || !last) return { items: fresh, nextCursor: page.nextCursor }
  const older = current.items.filter(item => compareNewestFirst(item, last) > 0)
  return older.length > 0
    ? { items: [...fresh, ...older], nextCursor: current.nextCursor }
    : { items: fresh, nextCursor: page.nextCursor }
}
