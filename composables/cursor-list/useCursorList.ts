import { appendPage, mergeFirstPage, type CursorPage, type Listed, type ListOrder } from '#shared/cursor-merge'

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
  /** The server's order of the list now (newest first unless told), which a refresh merges by. */
  order?: () => ListOrder<T>
  /** A further page could not be loaded; the list stays as it was. */
  onLoadMoreError?: (error: unknown) => void
  /**
   * Whether a failed refresh closes the list (the gallery's gate: closed meanwhile, a PIN now
   * asked): what was shown goes and `error` holds the answer until a page comes again. Any other
   * failed refresh leaves the list as it was.
   */
  closesOn?: (error: unknown) => boolean
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
    let page: P
    try {
      page = await options.fetchPage()
    }
    catch (failure) {
      if (current === generation && options.closesOn?.(failure)) {
        items.value = []
        nextCursor.value = null
        error.value = failure
      }
      throw failure
    }
    if (current !== generation || changes !== localChanges || options.holdRefresh?.()) return
    if (error.value !== null) {
      // Nothing was shown yet: this is the first page.
      show(page)
      return
    }
    const merged = mergeFirstPage({ items: items.value, nextCursor: nextCursor.value }, page, options.reuseUrls, options.order?.())
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

  let refreshing: Promise<void> | null = null
  let askAgain = false
  /** One refresh at a time; one asked for meanwhile runs once more after it. */
  function refreshLatest(): Promise<void> {
    if (refreshing) return refreshing
    refreshing = (async () => {
      do {
        askAgain = false
        try {
          await refresh()
        }
        catch (failure) {
          if (!askAgain) throw failure
        }
      } while (askAgain)
    })().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  const polling = usePolling(refreshLatest, options.pollMs)
  /**
   * Asks now (and the polling starts its interval again from there). A call while a refresh is on
   * its way asks once more after it, so a change the page just made (a file sent, one removed) is
   * never answered by a request that predates it.
   */
  function refreshNow(): Promise<void> {
    if (!refreshing) return polling.refreshNow()
    askAgain = true
    return refreshing
  }

  return { items, nextCursor, loading, loadingMore, error, arrived, show, reload, loadMore, refresh, refreshNow, change }
}
