import type { StatusFilter } from '#shared/enums'
import type { BulkResult } from '#shared/schemas/admin'
import type { AdminGuestbookItem, AdminGuestbookPage } from '#shared/schemas/guestbook'
import { toApiError } from '~/utils/api-error'

/** Messages shown per page of the Recados tab. */
const PAGE_SIZE = 50

/**
 * The Recados tab's list (GET /api/admin/guestbook) and its actions. The first page is polled
 * (a conditional GET: a 304 costs nothing); "load more" appends the next pages.
 */
export function useAdminGuestbook() {
  const api = useAdminApi()
  const conditionalGet = useConditionalAdminGet()
  const t = useAdminMessages()

  const status = ref<StatusFilter>('pending')
  const q = ref('')
  const items = ref<AdminGuestbookItem[]>([])
  const nextCursor = ref<string | null>(null)
  const total = ref(0)
  const error = ref<string | null>(null)
  const loading = ref(false)

  const query = (cursor?: string) => ({ status: status.value, q: q.value.trim() || undefined, limit: PAGE_SIZE, cursor })

  async function refresh() {
    loading.value = items.value.length === 0
    try {
      const page = await conditionalGet<AdminGuestbookPage>('/api/admin/guestbook', query())
      // Pages already loaded below the first stay; the first is replaced by the fresh one.
      const fresh = new Set(page.items.map(item => item.id))
      const older = items.value.slice(PAGE_SIZE).filter(item => !fresh.has(item.id))
      items.value = [...page.items, ...older]
      if (older.length === 0) nextCursor.value = page.nextCursor
      total.value = page.total
      error.value = null
    }
    catch (failure) {
      error.value = t.errors.describe(toApiError(failure))
    }
    finally {
      loading.value = false
    }
  }

  async function loadMore() {
    if (!nextCursor.value) return
    const page = await api<AdminGuestbookPage>('/api/admin/guestbook', { query: query(nextCursor.value) })
    const known = new Set(items.value.map(item => item.id))
    items.value = [...items.value, ...page.items.filter(item => !known.has(item.id))]
    nextCursor.value = page.nextCursor
  }

  /** A filter changed: the list starts again from its first page. */
  function restart() {
    items.value = []
    nextCursor.value = null
    void refresh()
  }

  function replace(updated: AdminGuestbookItem) {
    items.value = items.value.map(item => (item.id === updated.id ? updated : item))
  }

  async function patch(id: string, body: { status?: AdminGuestbookItem['status'], author?: string, text?: string }) {
    replace(await api<AdminGuestbookItem>(`/api/admin/guestbook/${id}`, { method: 'PATCH', body }))
  }

  async function remove(id: string) {
    await api(`/api/admin/guestbook/${id}`, { method: 'DELETE' })
    items.value = items.value.filter(item => item.id !== id)
  }

  async function bulk(ids: string[], action: 'approve' | 'reject' | 'delete'): Promise<BulkResult> {
    const result = await api<BulkResult>('/api/admin/guestbook/bulk', { method: 'POST', body: { ids, action } })
    await refresh()
    return result
  }

  return { status, q, items, nextCursor, total, error, loading, refresh, loadMore, restart, patch, remove, bulk }
}
