import { ErrorCode } from '#shared/errors'
import { GALLERY_PAGE_SIZE, type GalleryItem, type GalleryPage } from '#shared/schemas/gallery'
import { toApiError } from '~/app-utils/api-error'

/** How often page 1 is asked again, so new approvals appear without a reload. */
export const GALLERY_POLL_MS = 10_000
const REQUEST_TIMEOUT_MS = 15_000

export function fetchGalleryPage(query: { limit: number, cursor?: string, screenKey?: string, moment?: string }): Promise<GalleryPage> {
  return $fetch<GalleryPage>('/api/gallery', { query, retry: 0, timeout: REQUEST_TIMEOUT_MS })
}

/** What stands between the guest and the gallery: a closed mode (with its reveal moment), or a PIN. */
export type GalleryGate = { kind: 'closed', revealAt: string | null } | { kind: 'pin' }

/** The gate an answer names (403 GALLERY_CLOSED, 401 GALLERY_PIN_REQUIRED), or null for any other failure. */
export function galleryGateOf(error: unknown): GalleryGate | null {
  if (error === null || error === undefined) return null
  const failure = toApiError(error)
  if (failure.code === ErrorCode.GALLERY_CLOSED) {
    return { kind: 'closed', revealAt: typeof failure.data.revealAt === 'string' ? failure.data.revealAt : null }
  }
  if (failure.code === ErrorCode.GALLERY_PIN_REQUIRED) return { kind: 'pin' }
  return null
}

/**
 * The public gallery, whole or one moment's (`moment`): the first page comes with the server
 * render, further pages on request, and page 1 is asked again every few seconds while the tab is
 * visible. Its media addresses are public and never signed, so a shown picture keeps its address
 * for good. Another moment is another list: the page mounts the view again for it.
 */
export async function useGallery(moment?: string) {
  const narrowed = moment ? { moment } : {}
  const list = useCursorList<GalleryItem, GalleryPage>({
    fetchPage: cursor => fetchGalleryPage({ limit: GALLERY_PAGE_SIZE, ...narrowed, ...(cursor ? { cursor } : {}) }),
    pollMs: GALLERY_POLL_MS,
    // The button stays; the guest can press it again.
    onLoadMoreError: () => undefined,
  })
  // A closed or guarded gallery is no failure: the page says why and what to do. Polling goes on
  // meanwhile, so a reveal opens the page by itself.
  const gate = computed(() => galleryGateOf(list.error.value))
  const failed = computed(() => list.error.value !== null && gate.value === null)

  // Registered before the first await: a composable loses its component once it awaits.
  onMounted(() => {
    // The server could not fetch the first page (a timeout, say): the browser tries at once.
    if (failed.value) void list.refreshNow()
  })

  const first = await useFetch<GalleryPage>('/api/gallery', {
    key: `gallery-first-page${moment ? `:${moment}` : ''}`,
    query: { limit: GALLERY_PAGE_SIZE, ...narrowed },
  })
  if (first.error.value) list.error.value = first.error.value
  else list.show(first.data.value ?? { items: [], nextCursor: null })

  const { items, nextCursor, loadingMore, arrived, loadMore, refreshNow: retry } = list
  return { items, nextCursor, failed, gate, loadingMore, arrived, loadMore, retry }
}
