import type { StatusFilter } from '#shared/enums'
import type { BulkResult } from '#shared/schemas/admin'
import type { AdminGuestbookItem, AdminGuestbookPage } from '#shared/schemas/guestbook'
import { toApiError } from '~/utils/api-error'

/** Messages shown per page of the Recados tab. */
const PAGE_SIZE = 50
/** The list refreshes this often while the tab is open (a 304 when nothing changed). */
const REFRESH_MS = 5000

/**
 * The Recados tab's list (GET /api/admin/guestbook) on the live list, and its actions. The first
 * page is polled (a conditional GET: a 304 costs nothing); "load more" appends the next pages; a
 * filter change starts again from the first page.
 */
export function useAdminGuestbook() {
  const api = useAdminApi()
  const conditionalGet = useConditionalAdminGet()
  const toasts = useAdminToasts()
  const t = useAdminMessages()

  const status = ref<StatusFilter>('pending')
  const q = ref('')
  const total = ref(0)

  const query = (cursor?: string) => ({ status: status.value, q: q.value.trim() || undefined, limit: PAGE_SIZE, cursor })

  const list = useCursorList<AdminGuestbookItem, AdminGuestbookPage>({
    fetchPage: cursor => conditionalGet<AdminGuestbookPage>('/api/admin/guestbook', query(cursor)),
    pollMs: REFRESH_MS,
    onPage(page) {
      total.value = page.total
    },
    onLoadMoreError: error => toasts.error(t.errors.describe(toApiError(error))),
  })
  const error = computed(() => (list.error.value === null ? null : t.errors.describe(toApiError(list.error.value))))

  async function patch(id: string, body: { status?: AdminGuestbookItem['status'], author?: string, text?: string }) {
    const updated = await api<AdminGuestbookItem>(`/api/admin/guestbook/${id}`, { method: 'PATCH', body })
    list.change(list.items.value.map(item => (item.id === updated.id ? updated : item)))
  }

  async function remove(id: string) {
    await api(`/api/admin/guestbook/${id}`, { method: 'DELETE' })
    list.change(list.items.value.filter(item => item.id !== id))
  }

  async function bulk(ids: string[], action: 'approve' | 'reject' | 'delete'): Promise<BulkResult> {
    const result = await api<BulkResult>('/api/admin/guestbook/bulk', { method: 'POST', body: { ids, action } })
    await list.refresh()
    return result
  }

  const { items, nextCursor, loading, reload, refresh, loadMore } = list
  return { status, q, items, nextCursor, total, error, loading, reload, refresh, loadMore, patch, remove, bulk }
}
