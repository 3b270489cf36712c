import type { StatusFilter } from '#shared/enums'
import type { BulkAction, BulkResult } from '#shared/schemas/admin'
import type { AdminComment, AdminCommentListed, AdminCommentPage } from '#shared/schemas/reactions'
import { toApiError } from '~/app-utils/api-error'

/** Comments shown per page of the Comentários tab. */
const PAGE_SIZE = 50
/** The list refreshes this often while the tab is open (a 304 when nothing changed). */
const REFRESH_MS = 5000

/**
 * The Comentários tab's list (GET /api/admin/comments) on the live list, and its actions, shaped as
 * useAdminGuestbook: the first page is polled (conditional), "load more" appends, a filter change
 * starts again from the first page.
 */
export function useAdminComments() {
  const api = useAdminApi()
  const conditionalGet = useConditionalAdminGet()
  const toasts = useAdminToasts()
  const t = useAdminMessages()

  const status = ref<StatusFilter>('pending')
  const q = ref('')
  const total = ref(0)

  const query = (cursor?: string) => ({ status: status.value, q: q.value.trim() || undefined, limit: PAGE_SIZE, cursor })

  const list = useCursorList<AdminCommentListed, AdminCommentPage>({
    fetchPage: cursor => conditionalGet<AdminCommentPage>('/api/admin/comments', query(cursor)),
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

  /** Puts the server's verdict in place (the card keeps its thumbnail), then asks the list again (the comment may have left the filter). */
  async function setStatus(id: string, verdict: AdminComment['status']) {
    const action = verdict === 'approved' ? 'approve' : 'reject'
    const updated = await attempt(action, () => api<AdminComment>(`/api/admin/comments/${id}/${action}`, { method: 'POST' }))
    if (!updated) return false
    list.change(list.items.value.map(item => (item.id === updated.id ? { ...item, ...updated } : item)))
    toasts.info(action === 'approve' ? t.feedback.approved : t.feedback.rejected)
    await list.refresh()
    return true
  }

  async function remove(id: string) {
    const answer = await attempt('delete', () => api<{ id: string, deleted: true }>(`/api/admin/comments/${id}`, { method: 'DELETE' }))
    if (!answer) return false
    list.change(list.items.value.filter(item => item.id !== id))
    toasts.info(t.feedback.deleted)
    await list.refresh()
    return true
  }

  async function bulk(ids: string[], action: BulkAction['action']) {
    const result = await attempt('bulk', () => api<BulkResult>('/api/admin/comments/bulk', { method: 'POST', body: { ids, action } }))
    if (!result) return false
    toasts.info(t.comments.bulkDone(result.processed.length))
    await list.refresh()
    return true
  }

  const { items, nextCursor, loading, reload, loadMore } = list
  return { status, q, items, nextCursor, total, error, loading, reload, loadMore, setStatus, remove, bulk }
}
