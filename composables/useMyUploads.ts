import { appendPage } from '#shared/cursor-merge'
import type { MyUpload, MyUploadsPage } from '#shared/schemas/mine'

const PAGE_SIZE = 24
/** A moderation decision shows up on the guest's list within about this long. */
const POLL_MS = 20_000

function fetchMine(cursor?: string): Promise<MyUploadsPage> {
  return $fetch<MyUploadsPage>('/api/uploads/mine', { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }, retry: 0 })
}

/**
 * "Sent from this phone" (`GET /api/uploads/mine`, by the device's cookie): the newest page,
 * asked again every few seconds and whenever the page says so (a file sent or removed), further
 * pages on request, and the disposable-camera limit with what this device holds against it. The
 * list is short and the guest's own: a fresh first page replaces what it covers.
 */
export function useMyUploads() {
  const items = shallowRef<MyUpload[]>([])
  const nextCursor = ref<string | null>(null)
  const loadingMore = ref(false)
  const limit = ref<number | null>(null)
  const used = ref(0)
  let generation = 0

  async function refresh() {
    const current = ++generation
    const page = await fetchMine()
    if (current !== generation) return
    // The first page's items, then the older pages already shown beyond it.
    const last = page.items.at(-1)
    const older = last && page.nextCursor ? items.value.filter(item => item.createdAt < last.createdAt || (item.createdAt === last.createdAt && item.id < last.id)) : []
    items.value = [...page.items, ...older]
    if (!older.length) nextCursor.value = page.nextCursor
    limit.value = page.limit
    used.value = page.used
  }

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    loadingMore.value = true
    try {
      const page = await fetchMine(nextCursor.value)
      items.value = appendPage(items.value, page)
      nextCursor.value = page.nextCursor
    }
    catch { /* the button stays; the guest can press it again */ }
    finally {
      loadingMore.value = false
    }
  }

  let inFlight: Promise<void> | null = null
  let again = false
  /**
   * Asks now; a call while a request is on its way asks once more after it, so a change the page
   * just made (a file sent, one removed) is never answered by a request that predates it.
   */
  function refreshNow(): Promise<void> {
    if (inFlight) {
      again = true
      return inFlight
    }
    inFlight = (async () => {
      do {
        again = false
        await refresh().catch(() => undefined)
      } while (again)
    })().finally(() => {
      inFlight = null
    })
    return inFlight
  }

  /** An upload this page removed leaves the list at once, and gives its place back. */
  function forget(id: string) {
    if (!items.value.some(item => item.id === id)) return
    items.value = items.value.filter(item => item.id !== id)
    used.value = Math.max(0, used.value - 1)
  }

  usePolling(refreshNow, POLL_MS)
  return { items, nextCursor, loadingMore, loadMore, refreshNow, forget, limit, used }
}
