import type { Ref } from 'vue'
import type { StatusFilter } from '#shared/enums'
import type { BulkAction } from '#shared/schemas/admin'

/** What a moderated list gives the tab: useAdminGuestbook and useAdminComments have this shape. */
export interface AdminModeratedList<T> {
  status: Ref<StatusFilter>
  q: Ref<string>
  items: Readonly<Ref<readonly T[]>>
  nextCursor: Readonly<Ref<string | null>>
  total: Ref<number>
  error: Readonly<Ref<string | null>>
  loading: Readonly<Ref<boolean>>
  reload: () => Promise<unknown>
  loadMore: () => Promise<unknown>
  remove: (id: string) => Promise<boolean>
  bulk: (ids: string[], action: BulkAction['action']) => Promise<boolean>
}

/** The words that differ from one moderated kind to the next. */
export interface AdminModerationTabWords {
  title: string
  search: string
  empty: string
  emptyPending: string
  loadFailed: string
  deleteTitle: (count: number) => string
  deleteBody: string
}
