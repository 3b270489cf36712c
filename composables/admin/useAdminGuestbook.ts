import type { StatusFilter } from '#shared/enums'
import type { BulkAction, BulkResult } from '#shared/schemas/admin'
import type { AdminGuestbookItem, AdminGuestbookPage } from '#shared/schemas/guestbook'
import { toApiError } from '~/app-utils/api-error'

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

  type Action = keyof typeof t.errors.actions
  /** Calls the server for one action; a refusal is said in a toast (a 401 is already on its way to the login page). */
  async function attempt<T>(action: Action, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call()
    }
    catch (error) {
      const failure = toApiError(error)
      if (!failure.unauthenticated) toasts.error(t.errors.actionFailed(t.errors.actions[action], t.errors.describe(failure)))
      return undefined
    }
  }

  /** Puts the server's answer in place, then asks the list again (the item may have left the filter). */
  async function patch(id: string, action: Action, body: { status?: AdminGuestbookItem['status'], author?: string, text?: string }) {
    const updated = await attempt(action, () => api<AdminGuestbookItem>(`/api/admin/guestbook/${id}`, { method: 'PATCH', body }))
    if (!updated) return false
    list.change(list.items.value.map(item => (item.id === updated.id ? updated : item)))
    toasts.info(action === 'approve' ? t.feedback.approved : action === 'reject' ? t.feedback.rejected : t.feedback.edited)
    await list.refresh()
    return true
  }

  const setStatus = (id: string, status: AdminGuestbookItem['status']) => patch(id, status === 'approved' ? 'approve' : 'reject', { status })
  const edit = (id: string, words: { author: string, text: string }) => patch(id, 'edit', words)

  async function remove(id: string) {
    const answer = await attempt('delete', () => api<{ id: string, deleted: true }>(`/api/admin/guestbook/${id}`, { method: 'DELETE' }))
    if (!answer) return false
    list.change(list.items.value.filter(item => item.id !== id))
    toasts.info(t.feedback.deleted)
    await list.refresh()
    return true
  }

  async function bulk(ids: string[], action: BulkAction['action']) {
    const result = await attempt('bulk', () => api<BulkResult>('/api/admin/guestbook/bulk', { method: 'POST', body: { ids, action } }))
    if (!result) return false
    toasts.info(t.guestbook.bulkDone(result.processed.length))
    await list.refresh()
    return true
  }

  const { items, nextCursor, loading, reload, loadMore } = list
  return { status, q, items, nextCursor, total, error, loading, reload, loadMore, setStatus, edit, remove, bulk }
}
