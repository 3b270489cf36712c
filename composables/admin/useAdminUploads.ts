import type { AdminUpload, AdminUploadPage, BulkAction, BulkResult } from '#shared/schemas/admin'
import type { AdminEventConfig } from '#shared/schemas/event'
import { insertInOrder } from '#shared/cursor-merge'
import { matchesFilters, uploadOrder, type AdminUploadFilters } from '~/app-utils/admin-filters'
import { toApiError } from '~/app-utils/api-error'

export const ADMIN_PAGE_SIZE = 24
/** A new guest upload shows up within this long, without a reload. */
const REFRESH_MS = 5000
/** Signed image addresses live an hour; after this long a refresh may replace them. */
const URL_REUSE_MS = 20 * 60_000

type Action = keyof ReturnType<typeof useAdminMessages>['errors']['actions']

/**
 * The moderation list: the current filter's uploads, paged with the server's cursor, refreshed
 * in place (a live cursor list), and changed optimistically: every action shows its result at
 * once and is rolled back, with a message, when the server refuses it.
 */
export function useAdminUploads(filters: MaybeRefOrGetter<AdminUploadFilters>) {
  const api = useAdminApi()
  const conditionalGet = useConditionalAdminGet()
  const toasts = useAdminToasts()
  const t = useAdminMessages()

  const total = ref(0)
  /** There are more matches than `total`: a search counts up to a limit (docs/api.md). */
  const totalIsLowerBound = ref(false)
  /** Ids with a call in flight: their buttons wait, and a refresh does not touch them. */
  const busy = ref(new Set<string>())
  /** When the addresses shown for each upload were received (the originals' are signed). */
  const urlsSeenAt = new Map<string, number>()

  const current = computed(() => toValue(filters))

  function queryFor(cursor?: string) {
    const { status, kind, q, sort, moment, challenge } = current.value
    return {
      status,
      moment: moment || undefined,
      challenge: challenge || undefined,
      kind: kind === 'all' ? undefined : kind,
      q: q.trim() === '' ? undefined : q.trim(),
      sort: sort === 'newest' ? undefined : sort,
      limit: ADMIN_PAGE_SIZE,
      cursor,
    }
  }

  function reuseUrls(shown: AdminUpload): boolean {
    const seen = urlsSeenAt.get(shown.id)
    if (seen !== undefined && Date.now() - seen < URL_REUSE_MS) return true
    urlsSeenAt.set(shown.id, Date.now())
    return false
  }

  const list = useCursorList<AdminUpload, AdminUploadPage>({
    fetchPage: cursor => conditionalGet<AdminUploadPage>('/api/admin/uploads', queryFor(cursor)),
    pollMs: REFRESH_MS,
    onPage(page) {
      total.value = page.total
      totalIsLowerBound.value = page.totalIsLowerBound
      const now = Date.now()
      for (const item of page.items) if (!urlsSeenAt.has(item.id)) urlsSeenAt.set(item.id, now)
    },
    reuseUrls,
    // Under most-hearted-first, hearts move uploads: a refresh merges by that order, not by time.
    order: () => uploadOrder(current.value.sort),
    holdRefresh: () => busy.value.size > 0,
    onLoadMoreError: error => toasts.error(t.errors.describe(toApiError(error))),
  })
  const { items, nextCursor, loading, loadingMore, loadMore, refresh } = list
  const loadError = computed(() => (list.error.value === null ? null : t.errors.describe(toApiError(list.error.value))))

  /** The list for the current filters, from its first page. */
  async function reload() {
    urlsSeenAt.clear()
    await list.reload()
  }

  function setBusy(ids: string[], on: boolean) {
    const next = new Set(busy.value)
    for (const id of ids) {
      if (on) next.add(id)
      else next.delete(id)
    }
    busy.value = next
  }

  /**
   * Applies `change` to the given uploads on screen at once (an upload that no longer fits the
   * filter leaves the list) and returns how to put them back exactly as they were.
   */
  function applyLocally(ids: string[], change: (upload: AdminUpload) => AdminUpload | null): () => void {
    const before = items.value.filter(item => ids.includes(item.id))
    let next = items.value
    let removed = 0
    for (const original of before) {
      const changed = change(original)
      if (changed && matchesFilters(changed, current.value)) {
        next = next.map(item => (item.id === original.id ? changed : item))
      }
      else {
        next = next.filter(item => item.id !== original.id)
        removed++
      }
    }
    list.change(next)
    total.value = Math.max(0, total.value - removed)
    return () => {
      let restored = items.value
      let returned = 0
      for (const original of before) {
        if (!restored.some(item => item.id === original.id)) returned++
        restored = insertInOrder(restored, original, uploadOrder(current.value.sort))
      }
      list.change(restored)
      total.value += returned
    }
  }

  /** Puts the server's answer in place of the optimistic guess (if the upload is still shown). */
  function settle(record: AdminUpload) {
    const shown = items.value.find(item => item.id === record.id)
    // Not shown; still a change: a refresh already on its way may predate it.
    if (!shown) return list.change()
    list.change(matchesFilters(record, current.value)
      ? items.value.map(item => (item.id === record.id ? { ...record, url: shown.url, thumbUrl: shown.thumbUrl } : item))
      : items.value.filter(item => item.id !== record.id))
  }

  /** Runs one optimistic change: show it, call the server, roll back with a message on failure. */
  async function optimistic<T>(ids: string[], action: Action, change: (upload: AdminUpload) => AdminUpload | null, call: () => Promise<T>): Promise<T | undefined> {
    const rollBack = applyLocally(ids, change)
    setBusy(ids, true)
    try {
      return await call()
    }
    catch (error) {
      rollBack()
      const failure = toApiError(error)
      // A 401 is already on its way to the login page; nothing to explain here.
      if (!failure.unauthenticated) toasts.error(t.errors.actionFailed(t.errors.actions[action], t.errors.describe(failure)))
      return undefined
    }
    finally {
      setBusy(ids, false)
    }
  }

  async function setStatus(id: string, status: 'approved' | 'rejected') {
    const record = await optimistic([id], status === 'approved' ? 'approve' : 'reject', upload => ({ ...upload, status }), () =>
      api<AdminUpload>(`/api/admin/uploads/${encodeURIComponent(id)}/${status === 'approved' ? 'approve' : 'reject'}`, { method: 'POST' }))
    if (record) settle(record)
    return Boolean(record)
  }

  const approve = (id: string) => setStatus(id, 'approved')
  const reject = (id: string) => setStatus(id, 'rejected')

  async function remove(id: string) {
    const answer = await optimistic([id], 'delete', () => null, () =>
      api<{ id: string, deleted: true }>(`/api/admin/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }))
    if (answer) toasts.info(t.feedback.deleted)
    return Boolean(answer)
  }

  async function edit(id: string, patch: { author: string, message: string }) {
    const record = await optimistic([id], 'edit', upload => ({ ...upload, ...patch }), () =>
      api<AdminUpload>(`/api/admin/uploads/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }))
    if (record) {
      settle(record)
      toasts.info(t.feedback.edited)
    }
    return Boolean(record)
  }

  /** Makes an approved photo the cover; the answer is the event configuration. */
  async function setCover(id: string): Promise<AdminEventConfig | undefined> {
    const others = items.value.filter(item => item.isCover || item.id === id).map(item => item.id)
    const config = await optimistic(others, 'setCover', upload => ({ ...upload, isCover: upload.id === id }), () =>
      api<AdminEventConfig>(`/api/admin/uploads/${encodeURIComponent(id)}/cover`, { method: 'POST' }))
    if (config) {
      list.change(items.value.map(item => (item.isCover === (item.id === config.coverUploadId) ? item : { ...item, isCover: item.id === config.coverUploadId })))
      toasts.info(t.feedback.coverSet)
    }
    return config
  }

  /** A bulk action; `moment` puts them all in that moment (null: in none). */
  async function bulk(ids: string[], action: BulkAction['action'], momentId: string | null = null) {
    const status: AdminUpload['status'] = action === 'approve' ? 'approved' : 'rejected'
    const change = (upload: AdminUpload): AdminUpload | null => (action === 'delete' ? null : action === 'moment' ? { ...upload, momentId } : { ...upload, status })
    const body = action === 'moment' ? { ids, action, momentId } : { ids, action }
    const result = await optimistic(ids, 'bulk', change, () =>
      api<BulkResult>('/api/admin/uploads/bulk', { method: 'POST', body }))
    if (!result) return false
    if (result.notFound.length > 0) {
      // Gone meanwhile (deleted elsewhere): they must not come back on screen.
      list.change(items.value.filter(item => !result.notFound.includes(item.id)))
      toasts.info(`${t.feedback.bulkDone(result.processed.length)} ${t.feedback.bulkNotFound(result.notFound.length)}`)
    }
    else {
      toasts.info(t.feedback.bulkDone(result.processed.length))
    }
    return true
  }

  /** What a cover change made elsewhere (the event form) means for the flags on screen. */
  function markCover(coverUploadId: string | null) {
    items.value = items.value.map(item => (item.isCover === (item.id === coverUploadId) ? item : { ...item, isCover: item.id === coverUploadId }))
  }

  return {
    items, nextCursor, total, totalIsLowerBound, loading, loadingMore, loadError, busy,
    reload, loadMore, refresh, approve, reject, remove, edit, setCover, bulk, markCover,
  }
}
