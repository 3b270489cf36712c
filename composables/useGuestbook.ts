import type { GuestbookItem, GuestbookPage } from '#shared/schemas/guestbook'
import { galleryGateOf } from '~/composables/useGallery'

const GUESTBOOK_PAGE_SIZE = 24
/** How often page 1 is asked again, so new approvals appear without a reload. */
const GUESTBOOK_POLL_MS = 15_000
const REQUEST_TIMEOUT_MS = 15_000

function fetchGuestbookPage(cursor?: string): Promise<GuestbookPage> {
  return $fetch<GuestbookPage>('/api/guestbook', {
    query: { limit: GUESTBOOK_PAGE_SIZE, ...(cursor ? { cursor } : {}) }, retry: 0, timeout: REQUEST_TIMEOUT_MS,
  })
}

/**
 * The guests' approved messages (GET /api/guestbook) on the live list: the newest page, asked
 * again every few seconds while the tab is visible (the browser revalidates it with its ETag),
 * and older pages on request. A message rejected meanwhile leaves the first page; pages below
 * keep theirs. The gallery's gate stands before the guestbook too: a gallery closed meanwhile,
 * or one that now asks a PIN, empties the list and is said, not failed.
 */
export function useGuestbook() {
  const list = useCursorList<GuestbookItem, GuestbookPage>({
    fetchPage: fetchGuestbookPage,
    pollMs: GUESTBOOK_POLL_MS,
    closesOn: error => galleryGateOf(error) !== null,
    // The button stays; the guest can press it again.
    onLoadMoreError: () => undefined,
  })
  const gate = computed(() => galleryGateOf(list.error.value))
  const failed = computed(() => list.error.value !== null && gate.value === null)
  /** A first answer came (a page, a gate or a failure): before it, "no messages yet" is not said. */
  const loaded = ref(false)

  onMounted(() => void list.reload().finally(() => {
    loaded.value = true
  }))

  const { items, nextCursor, loadingMore, loadMore, refreshNow: retry } = list
  return { items, nextCursor, failed, gate, loaded, loadingMore, loadMore, retry }
}
