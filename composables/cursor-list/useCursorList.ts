import { appendPage, mergeFirstPage, type CursorPage, type Listed } from '#shared/cursor-merge'

export interface CursorListOptions<T extends Listed, P extends CursorPage<T>> {
  /** One page of the list: the newest without a cursor. */
  fetchPage: (cursor?: string) => Promise<P>
  /** How often the newest page is asked again, while the tab is visible. */
  pollMs: number
  /** Every page that reached the list (the admin's total comes with it). */
  onPage?: (page: P) => void
  /** Whether the addresses shown for an item may stay (signed ones expire); by default always. */
  reuseUrls?: (shown: T) => boolean
  /** True while a refresh must not land (the admin waits for the server's answer to a change). */
  holdRefresh?: () => boolean
  /** A further page could not be loaded; the list stays as it was. */
  onLoadMoreError?: (error: unknown) => void
}

/**
 * A list paged with the server's cursor that stays live: the first page (again with `reload`),
 * further pages on request, and the first page asked again every `pollMs` (through usePolling)
 * and folded into what is shown. A list whose first page could not be loaded is replaced whole by
 * the next answer. Local changes go through `change`, so that a refresh already on its way does
 * not bring back what was just changed.
 */
export function useCursorList<T extends Listed, P extends CursorPage<T> = CursorPage<T>>(options: CursorListOptions<T, P>) {
  const items = shallowRef<T[]>([])
  const nextCursor = ref<string | null>(null)
  const loading = ref(false)
  const loadingMore = ref(false)
  /** Why the first page could not be loaded; null once it was. */
  const error = shallowRef<unknown>(null)
  /** Items a refresh brought since the list was shown (announced politely to screen readers). */
  const arrived = ref(0)

  // A reload makes every older answer stale; so does any local change for a refresh that was
  // already on its way (it would bring back what was just changed).
  let generation = 0
  let localChanges = 0

  /** Shows a first page as the whole list. */
  function show(page: P) {
    items.value = page.items
    nextCursor.value = page.nextCursor
    error.value = null
    options.onPage?.(page)
  }

  async function reload() {
    const current = ++generation
    loading.value = true
    error.value = null
    try {
      const page = await options.fetchPage()
      if (current === generation) show(page)
    }
    catch (failure) {
      if (current === generation) error.value = failure
    }
    finally {
      if (current === generation) loading.value = false
    }
  }

  async function loadMore() {
    if (!nextCursor.value || loadingMore.value) return
    const current = generation
    loadingMore.value = true
    try {
      const page = await options.fetchPage(nextCursor.value)
      if (current !== generation) return
      items.value = appendPage(items.value, page)
      nextCursor.value = page.nextCursor
      options.onPage?.(page)
    }
    catch (failure) {
      if (current === generation) options.onLoadMoreError?.(failure)
    }
    finally {
      loadingMore.value = false
    }
  }

  /** The newest page again, folded into what is shown (new items, changes made elsewhere). */
  async function refresh() {
    if (loading.value) return
    const current = generation
    const changes = localChanges
    const page = await options.fetchPage()
    if (current !== generation || changes !== localChanges || options.holdRefresh?.()) return
    if (error.value !== null) {
      // Nothing was shown yet: this is the first page.
      show(page)
      return
    }
    const merged = mergeFirstPage({ items: items.value, nextCursor: nextCursor.value }, page, options.reuseUrls)
    items.value = merged.items
    nextCursor.value = merged.nextCursor
    arrived.value += merged.added
    options.onPage?.(page)
  }

  /**
   * A change made here (an optimistic action, its rollback), shown at once: a refresh already on
   * its way predates it and is dropped. With no list, only that.
   */
  function change(next: T[] = items.value) {
    localChanges++
    items.value = next
  }

  const { refreshNow } = usePolling(refresh, options.pollMs)

  return { items, nextCursor, loading, loadingMore, error, arrived, show, reload, loadMore, refresh, refreshNow, change }
}
