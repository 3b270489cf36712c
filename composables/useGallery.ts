import type { GalleryItem, GalleryPage } from '~~/shared/schemas/gallery'

export const GALLERY_PAGE_SIZE = 24
/** How often page 1 is asked again, so new approvals appear without a reload. */
export const GALLERY_POLL_MS = 10_000
const REQUEST_TIMEOUT_MS = 15_000

/** The gallery's order: newest `createdAt` first, ties by id (as the API pages them). */
export function newestFirst(a: GalleryItem, b: GalleryItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/**
 * Folds a freshly fetched first page into what is shown: unseen items join in their place (new
 * ones on top), fresher copies replace old ones (URLs are re-signed), and items the page should
 * hold but no longer does (rejected, deleted) leave. Items older than the page are kept as they
 * are: the page says nothing about them.
 */
export function mergeFirstPage(current: GalleryItem[], page: GalleryPage): { items: GalleryItem[], added: number } {
  const fresh = new Map(page.items.map(item => [item.id, item]))
  const oldest = page.items.at(-1)
  const pageCovers = (item: GalleryItem) => page.nextCursor === null || (oldest !== undefined && newestFirst(item, oldest) <= 0)
  const kept = current
    .filter(item => fresh.has(item.id) || !pageCovers(item))
    .map(item => fresh.get(item.id) ?? item)
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

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    loadingMore.value = true
    try {
      const page = await fetchGalleryPage({ limit: GALLERY_PAGE_SIZE, cursor: nextCursor.value })
      items.value = appendPage(items.value, page)
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
        items.value = page.items
        nextCursor.value = page.nextCursor
        failed.value = false
        return
      }
      const merged = mergeFirstPage(items.value, page)
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
  failed.value = Boolean(first.error.value)

  async function retry() {
    await pollFirstPage()
  }

  return { items, nextCursor, failed, loadingMore, arrived, loadMore, retry }
}
