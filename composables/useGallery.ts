import { GALLERY_PAGE_SIZE, type GalleryItem, type GalleryPage } from '#shared/schemas/gallery'

/** How often page 1 is asked again, so new approvals appear without a reload. */
export const GALLERY_POLL_MS = 10_000
const REQUEST_TIMEOUT_MS = 15_000

export function fetchGalleryPage(query: { limit: number, cursor?: string }): Promise<GalleryPage> {
  return $fetch<GalleryPage>('/api/gallery', { query, retry: 0, timeout: REQUEST_TIMEOUT_MS })
}

/**
 * The public gallery: the first page comes with the server render, further pages on request,
 * and page 1 is asked again every few seconds while the tab is visible. Its media addresses are
 * public and never signed, so a shown picture keeps its address for good.
 */
export async function useGallery() {
  const list = useCursorList<GalleryItem, GalleryPage>({
    fetchPage: cursor => fetchGalleryPage({ limit: GALLERY_PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    pollMs: GALLERY_POLL_MS,
    // The button stays; the guest can press it again.
    onLoadMoreError: () => undefined,
  })
  const failed = computed(() => list.error.value !== null)

  // Registered before the first await: a composable loses its component once it awaits.
  onMounted(() => {
    // The server could not fetch the first page (a timeout, say): the browser tries at once.
    if (failed.value) void list.refreshNow()
  })

  const first = await useFetch<GalleryPage>('/api/gallery', {
    key: 'gallery-first-page',
    query: { limit: GALLERY_PAGE_SIZE },
  })
  if (first.error.value) list.error.value = first.error.value
  else list.show(first.data.value ?? { items: [], nextCursor: null })

  const { items, nextCursor, loadingMore, arrived, loadMore, refreshNow: retry } = list
  return { items, nextCursor, failed, loadingMore, arrived, loadMore, retry }
}
