import type { StatusFilter, UploadStatus } from '#shared/enums'
import type { Listed } from '#shared/cursor-merge'
import type { BulkAction, BulkResult } from '#shared/schemas/admin'
import { toApiError } from '~/app-utils/api-error'

/** Items shown per page of a words tab (Recados, Comentários). */
const PAGE_SIZE = 50
/** The list refreshes this often while the tab is open (a 304 when nothing changed). */
const REFRESH_MS = 5000

interface WordsItem extends Listed { status: UploadStatus }
interface WordsPage<T> { items: T[], nextCursor: string | null, total: number }
export type WordsAction = keyof ReturnType<typeof useAdminMessages>['errors']['actions']

/**
 * A tab of moderated words (the guestbook's messages, the gallery's comments) on the live list,
 * and the actions every such tab has: the first page is polled (a conditional GET: a 304 costs
 * nothing), "load more" appends the next pages, a filter change starts again from the first page.
 * `path` is the admin collection (`/api/admin/guestbook`); `setStatus` and `edit` differ between
 * the two and are built by each on `update`.
 */
export function useAdminWordsList<T extends WordsItem>(path: string, bulkDone: (count: number) => string) {
  const api = useAdminApi()
  const conditionalGet = useConditionalAdminGet()
  const toasts = useAdminToasts()
  const t = useAdminMessages()

  const status = ref<StatusFilter>('pending')
  const q = ref('')
  const total = ref(0)

  const query = (cursor?: string) => ({ status: status.value, q: q.value.trim() || undefined, limit: PAGE_SIZE, cursor })

  const list = useCursorList<T, WordsPage<T>>({
    fetchPage: cursor => conditionalGet<WordsPage<T>>(path, query(cursor)),
    pollMs: REFRESH_MS,
    onPage(page) {
      total.value = page.total
    },
    onLoadMoreError: error => toasts.error(t.errors.describe(toApiError(error))),
  })
  const error = computed(() => (list.error.value === null ? null : t.errors.describe(toApiError(list.error.value))))

  /** Calls the server for one action; a refusal is said in a toast (a 401 is already on its way to the login page). */
  async function attempt<R>(action: WordsAction, call: () => Promise<R>): Promise<R | undefined> {
    try {
      return await call()
    }
    catch (error) {
      const failure = toApiError(error)
      if (!failure.unauthenticated) toasts.error(t.errors.actionFailed(t.errors.actions[action], t.errors.describe(failure)))
      return undefined
    }
  }

  /** Puts the server's answer over the item (a card keeps what the answer leaves out), then asks the list again (it may have left the filter). */
  async function update(action: WordsAction, call: () => Promise<Partial<T> & { id: string }>) {
    const updated = await attempt(action, call)
    if (!updated) return false
    list.change(list.items.value.map(item => (item.id === updated.id ? { ...item, ...updated } : item)))
    toasts.info(action === 'approve' ? t.feedback.approved : action === 'reject' ? t.feedback.rejected : t.feedback.edited)
    await list.refresh()
    return true
  }

  async function remove(id: string) {
    const answer = await attempt('delete', () => api<{ id: string, deleted: true }>(`${path}/${id}`, { method: 'DELETE' }))
    if (!answer) return false
    list.change(list.items.value.filter(item => item.id !== id))
    toasts.info(t.feedback.deleted)
    await list.refresh()
    return true
  }

  async function bulk(ids: string[], action: BulkAction['action']) {
    const result = await attempt('bulk', () => api<BulkResult>(`${path}/bulk`, { method: 'POST', body: { ids, action } }))
    if (!result) return false
    toasts.info(bulkDone(result.processed.length))
    await list.refresh()
    return true
  }

  const { items, nextCursor, loading, reload, loadMore } = list
  return { api, update, status, q, items, nextCursor, total, error, loading, reload, loadMore, remove, bulk }
}
