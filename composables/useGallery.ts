import type { GalleryItem, GalleryPage } from '~~/shared/schemas/gallery'

export const GALLERY_PAGE_SIZE = 24
/** How often page 1 is asked again, so new approvals appear without a reload. */
export const GALLERY_POLL_MS = 10_000
/** Signed URLs live an hour: an unchanged item still takes a fresh copy after this long. */
const SIGNED_COPY_MAX_AGE_MS = 30 * 60_000
const REQUEST_TIMEOUT_MS = 15_000

/** The gallery's order: newest `createdAt` first, ties by id (as the API pages them). */
export function newestFirst(a: GalleryItem, b: GalleryItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

const withoutQuery = (url: string | null) => url?.split('?')[0] ?? null

/**
 * Two copies of an item that show the same thing: same words, same media, even if the URLs were
 * signed again (a signed URL changes on every answer; taking it would reload the picture).
 */
export function sameItem(a: GalleryItem, b: GalleryItem): boolean {
  return a.id === b.id && a.author === b.author && a.message === b.message && a.kind === b.kind
    && withoutQuery(a.url) === withoutQuery(b.url) && withoutQuery(a.thumbUrl) === withoutQuery(b.thumbUrl)
}

/**
 * Folds a freshly fetched first page into what is shown: unseen items join in their place (new
 * ones on top), changed items are replaced (an edited message, a thumbnail made meanwhile), and
 * items the page should hold but no longer does (rejected, deleted) leave. Items older than the
 * page are kept as they are: the page says nothing about them. `keep` decides when an unchanged
 * item keeps its old copy (by default: whenever it shows the same thing).
 */
export function mergeFirstPage(
  current: GalleryItem[],
  page: GalleryPage,
  keep: (shown: GalleryItem, fresh: GalleryItem) => boolean = sameItem,
): { items: GalleryItem[], added: number } {
  const fresh = new Map(page.items.map(item => [item.id, item]))
  const oldest = page.items.at(-1)
  const pageCovers = (item: GalleryItem) => page.nextCursor === null || (oldest !== undefined && newestFirst(item, oldest) <= 0)
  const kept = current
    .filter(item => fresh.has(item.id) || !pageCovers(item))
    .map((item) => {
      const copy = fresh.get(item.id)
      return copy && !keep(item, copy) ? copy : item
    })
  const known = new Set(current.map(item => item.id))
  const added = page.items.filter(item => !known.has(item.id))
  return { items: [...added, ...kept].sort(newestFirst), added: added.length }
}

/** Appends a further page, never listing an item twice. */
export function appendPage(current: GalleryItem[], page: GalleryPage): GalleryItem[] {
  const known = new Set(current.map(item => item.id))
  return [...current, ...page.items.filter(item => !known.has(item.id))]
}

export function fetchGalleryPage(query: { limit: number, cursor?: string }): Promise<GalleryPage> {
  return $fetch<GalleryPage>('/api/gallery', { query, retry: 0, timeout: REQUEST_TIMEOUT_MS })
}

/**
 * The public gallery: the first page comes with the server render, further pages on request,
 * and page 1 is asked again every few seconds while the tab is visible.
 */
export async function useGallery() {
  const items = shallowRef<GalleryItem[]>([])
  const nextCursor = ref<string | null>(null)
  const failed = ref(false)
  const loadingMore = ref(false)
  /** New items seen since the page opened (announced politely to screen readers). */
  const arrived = ref(0)
  /** When each shown copy was received (signed URLs expire). */
  const receivedAt = new Map<string, number>()

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    loadingMore.value = true
    try {
      const page = await fetchGalleryPage({ limit: GALLERY_PAGE_SIZE, cursor: nextCursor.value })
      items.value = appendPage(items.value, page)
      for (const item of page.items) receivedAt.set(item.id, Date.now())
      nextCursor.value = page.nextCursor
    }
    catch {
      // The button stays; the guest can press it again.
    }
    finally {
      loadingMore.value = false
    }
  }

  async function pollFirstPage() {
    try {
      const page = await fetchGalleryPage({ limit: GALLERY_PAGE_SIZE })
      if (failed.value) {
        // Nothing was shown yet: this is the first page.
        for (const item of page.items) receivedAt.set(item.id, Date.now())
        items.value = page.items
        nextCursor.value = page.nextCursor
        failed.value = false
        return
      }
      const now = Date.now()
      const merged = mergeFirstPage(items.value, page, (shown, fresh) =>
        sameItem(shown, fresh) && now - (receivedAt.get(shown.id) ?? 0) < SIGNED_COPY_MAX_AGE_MS)
      for (const item of merged.items) {
        if (!receivedAt.has(item.id) || page.items.includes(item)) receivedAt.set(item.id, now)
      }
      const shownIds = new Set(merged.items.map(item => item.id))
      for (const id of receivedAt.keys()) if (!shownIds.has(id)) receivedAt.delete(id)
      if (merged.added) arrived.value += merged.added
      items.value = merged.items
      if (items.value.length <= page.items.length) nextCursor.value = page.nextCursor
    }
    catch {
      // Offline or the server had a moment: the next poll tries again.
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const schedule = () => {
    clearTimeout(timer)
    if (!stopped) timer = setTimeout(tick, GALLERY_POLL_MS)
  }
  const tick = async () => {
    if (document.visibilityState !== 'hidden') await pollFirstPage()
    schedule()
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') void tick()
  }
  // Registered before the first await: a composable loses its component once it awaits.
  onMounted(() => {
    document.addEventListener('visibilitychange', onVisible)
    // The server could not fetch the first page (a timeout, say): the browser tries at once.
    if (failed.value) void tick()
    else schedule()
  })
  onBeforeUnmount(() => {
    stopped = true
    clearTimeout(timer)
    document.removeEventListener('visibilitychange', onVisible)
  })

  const first = await useFetch<GalleryPage>('/api/gallery', {
    key: 'gallery-first-page',
    query: { limit: GALLERY_PAGE_SIZE },
  })
  items.value = first.data.value?.items ?? []
  nextCursor.value = first.data.value?.nextCursor ?? null
  // Server-rendered copies count from now: their signatures are as fresh as the page.
  for (const item of items.value) receivedAt.set(item.id, Date.now())
  failed.value = Boolean(first.error.value)

  async function retry() {
    await pollFirstPage()
  }

  return { items, nextCursor, failed, loadingMore, arrived, loadMore, retry }
}
