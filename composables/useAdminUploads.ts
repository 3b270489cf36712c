import type { AdminUpload, AdminUploadPage, BulkAction, BulkResult } from '~~/shared/schemas/admin'
import type { AdminEventConfig } from '~~/shared/schemas/event'
import {
  insertInOrder, matchesFilters, mergeNewestPage, type AdminUploadFilters,
} from '~/utils/admin-uploads-merge'
import { toAdminApiError } from './useAdminApi'

export const ADMIN_PAGE_SIZE = 24
/** Signed image addresses live an hour; after this long a refresh may replace them. */
const URL_REUSE_MS = 20 * 60_000

type Action = keyof ReturnType<typeof useAdminMessages>['errors']['actions']

/**
 * The moderation list: the current filter's uploads, paged with the server's cursor, refreshed
 * in place, and changed optimistically: every action shows its result at once and is rolled back,
 * with a message, when the server refuses it.
 */
export function useAdminUploads(filters: MaybeRefOrGetter<AdminUploadFilters>) {
  const api = useAdminApi()
  const toasts = useAdminToasts()
  const t = useAdminMessages()

  const items = ref<AdminUpload[]>([])
  const nextCursor = ref<string | null>(null)
  const total = ref(0)
  /** There are more matches than `total`: a search counts up to a limit (docs/api.md). */
  const totalIsLowerBound = ref(false)
  const loading = ref(false)
  const loadingMore = ref(false)
  const loadError = ref<string | null>(null)
  /** Ids with a call in flight: their buttons wait, and a refresh does not touch them. */
  const busy = ref(new Set<string>())

  // A reload for other filters makes every older answer stale; so does any local change for a
  // refresh that was already on its way (it would bring back what was just changed).
  let filterGeneration = 0
  let localChanges = 0
  const urlsSeenAt = new Map<string, number>()

  const current = computed(() => toValue(filters))

  function queryFor(cursor?: string) {
    const { status, kind, q } = current.value
    return {
      status,
      kind: kind === 'all' ? undefined : kind,
      q: q.trim() === '' ? undefined : q.trim(),
      limit: ADMIN_PAGE_SIZE,
      cursor,
    }
  }

  function noteUrls(list: AdminUpload[]) {
    const now = Date.now()
    for (const item of list) if (!urlsSeenAt.has(item.id)) urlsSeenAt.set(item.id, now)
  }

  function reuseUrls(id: string): boolean {
    const seen = urlsSeenAt.get(id)
    if (seen !== undefined && Date.now() - seen < URL_REUSE_MS) return true
    urlsSeenAt.set(id, Date.now())
    return false
  }

  async function reload() {
    const generation = ++filterGeneration
    loading.value = true
    loadError.value = null
    try {
      const page = await api<AdminUploadPage>('/api/admin/uploads', { query: queryFor() })
      if (generation !== filterGeneration) return
      urlsSeenAt.clear()
      noteUrls(page.items)
      items.value = page.items
      nextCursor.value = page.nextCursor
      total.value = page.total
      totalIsLowerBound.value = page.totalIsLowerBound
    }
    catch (error) {
      if (generation === filterGeneration) loadError.value = toAdminApiError(error).message
    }
    finally {
      if (generation === filterGeneration) loading.value = false
    }
  }

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    const generation = filterGeneration
    loadingMore.value = true
    try {
      const page = await api<AdminUploadPage>('/api/admin/uploads', { query: queryFor(nextCursor.value) })
      if (generation !== filterGeneration) return
      const known = new Set(items.value.map(item => item.id))
      noteUrls(page.items)
      items.value = [...items.value, ...page.items.filter(item => !known.has(item.id))]
      nextCursor.value = page.nextCursor
      total.value = page.total
      totalIsLowerBound.value = page.totalIsLowerBound
    }
    catch (error) {
      if (generation === filterGeneration) toasts.error(toAdminApiError(error).message)
    }
    finally {
      loadingMore.value = false
    }
  }

  /** The newest page again, folded into what is shown (new uploads, changes made elsewhere). */
  async function refresh() {
    if (loading.value) return
    const generation = filterGeneration
    const changes = localChanges
    const page = await api<AdminUploadPage>('/api/admin/uploads', { query: queryFor() })
    if (generation !== filterGeneration || changes !== localChanges || busy.value.size > 0) return
    const merged = mergeNewestPage({ items: items.value, nextCursor: nextCursor.value }, page, reuseUrls)
    noteUrls(merged.items)
    items.value = merged.items
    nextCursor.value = merged.nextCursor
    total.value = page.total
    totalIsLowerBound.value = page.totalIsLowerBound
    loadError.value = null
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
    localChanges++
    const before = items.value.filter(item => ids.includes(item.id))
    let list = items.value
    let removed = 0
    for (const original of before) {
      const changed = change(original)
      if (changed && matchesFilters(changed, current.value)) {
        list = list.map(item => (item.id === original.id ? changed : item))
      }
      else {
        list = list.filter(item => item.id !== original.id)
        removed++
      }
    }
    items.value = list
    total.value = Math.max(0, total.value - removed)
    return () => {
      localChanges++
      let restored = items.value
      let returned = 0
      for (const original of before) {
        if (!restored.some(item => item.id === original.id)) returned++
        restored = insertInOrder(restored, original)
      }
      items.value = restored
      total.value += returned
    }
  }

  /** Puts the server's answer in place of the optimistic guess (if the upload is still shown). */
  function settle(record: AdminUpload) {
    localChanges++
    const shown = items.value.find(item => item.id === record.id)
    if (!shown) return
    items.value = matchesFilters(record, current.value)
      ? items.value.map(item => (item.id === record.id ? { ...record, url: shown.url, thumbUrl: shown.thumbUrl } : item))
      : items.value.filter(item => item.id !== record.id)
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
      const failure = toAdminApiError(error)
      // A 401 is already on its way to the login page; nothing to explain here.
      if (!failure.unauthenticated) toasts.error(t.errors.actionFailed(t.errors.actions[action], failure.message))
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
      localChanges++
      items.value = items.value.map(item => (item.isCover === (item.id === config.coverUploadId) ? item : { ...item, isCover: item.id === config.coverUploadId }))
      toasts.info(t.feedback.coverSet)
    }
    return config
  }

  async function bulk(ids: string[], action: BulkAction['action']) {
    const status = action === 'approve' ? 'approved' : 'rejected'
    const result = await optimistic(ids, 'bulk', upload => (action === 'delete' ? null : { ...upload, status }), () =>
      api<BulkResult>('/api/admin/uploads/bulk', { method: 'POST', body: { ids, action } }))
    if (!result) return false
    if (result.notFound.length > 0) {
      // Gone meanwhile (deleted elsewhere): they must not come back on screen.
      localChanges++
      items.value = items.value.filter(item => !result.notFound.includes(item.id))
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
