import { appendPage } from '#shared/cursor-merge'
import type { GuestbookItem, GuestbookPage } from '#shared/schemas/guestbook'
import { galleryGateOf, type GalleryGate } from '~/composables/useGallery'

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
 * The guests' approved messages (GET /api/guestbook): the newest page, asked again every few
 * seconds while the tab is visible (the browser revalidates it with its ETag), and older pages
 * on request. A message rejected meanwhile leaves the first page; pages below keep theirs.
 */
export function useGuestbook() {
  const items = shallowRef<GuestbookItem[]>([])
  const nextCursor = ref<string | null>(null)
  const failed = ref(false)
  /** The gallery's gate stands before the guestbook too (a closed gallery, a PIN): said, not failed. */
  const gate = ref<GalleryGate | null>(null)
  const loaded = ref(false)
  const loadingMore = ref(false)
  let firstPageIds = new Set<string>()

  async function refresh() {
    try {
      const page = await fetchGuestbookPage()
      const fresh = new Set(page.items.map(item => item.id))
      const older = items.value.filter(item => !fresh.has(item.id) && !firstPageIds.has(item.id))
      items.value = [...page.items, ...older]
      if (older.length === 0) nextCursor.value = page.nextCursor
      firstPageIds = fresh
      failed.value = false
      gate.value = null
    }
    catch (error) {
      gate.value = galleryGateOf(error)
      if (gate.value) items.value = []
      failed.value = gate.value === null && items.value.length === 0
    }
    finally {
      loaded.value = true
    }
  }

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    loadingMore.value = true
    try {
      const page = await fetchGuestbookPage(nextCursor.value)
      items.value = appendPage(items.value, page)
      nextCursor.value = page.nextCursor
    }
    catch { /* the button stays; the guest can press it again */ }
    finally {
      loadingMore.value = false
    }
  }

  const { refreshNow } = usePolling(refresh, GUESTBOOK_POLL_MS)
  onMounted(() => void refreshNow())
  return { items, nextCursor, failed, gate, loaded, loadingMore, loadMore, retry: refreshNow }
}
