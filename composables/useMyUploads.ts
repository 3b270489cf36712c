import type { MyUpload, MyUploadsPage } from '#shared/schemas/mine'

const PAGE_SIZE = 24
/** A moderation decision shows up on the guest's list within about this long. */
const POLL_MS = 20_000

function fetchMine(cursor?: string): Promise<MyUploadsPage> {
  return $fetch<MyUploadsPage>('/api/uploads/mine', { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }, retry: 0 })
}

/**
 * "Sent from this phone" (`GET /api/uploads/mine`, by the device's cookie) on the live list: the
 * newest page, asked again every few seconds and whenever the page says so (a file sent or
 * removed), further pages on request, and the disposable-camera limit with what this device
 * holds against it.
 */
export function useMyUploads() {
  const limit = ref<number | null>(null)
  const used = ref(0)
  /** Every challenge this device answered (the server's count, beyond the pages loaded). */
  const answeredChallenges = ref<string[]>([])
  const list = useCursorList<MyUpload, MyUploadsPage>({
    fetchPage: fetchMine,
    pollMs: POLL_MS,
    onPage(page) {
      limit.value = page.limit
      used.value = page.used
      answeredChallenges.value = page.answeredChallenges ?? []
    },
    // The button stays; the guest can press it again.
    onLoadMoreError: () => undefined,
  })

  /** An upload this page removed leaves the list at once, and gives its place back. */
  function forget(id: string) {
    if (!list.items.value.some(item => item.id === id)) return
    list.change(list.items.value.filter(item => item.id !== id))
    used.value = Math.max(0, used.value - 1)
  }

  /** Asks now; a refused request leaves the list as it was (the next poll asks again). */
  const refreshNow = () => list.refreshNow().catch(() => undefined)

  const { items, nextCursor, loadingMore, loadMore } = list
  return { items, nextCursor, loadingMore, loadMore, refreshNow, forget, limit, used, answeredChallenges }
}
