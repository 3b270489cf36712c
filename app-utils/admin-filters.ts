import type { KindFilter, StatusFilter } from '#shared/enums'
import type { AdminUpload } from '#shared/schemas/admin'

export type AdminStatusFilter = StatusFilter
export type AdminKindFilter = KindFilter

export interface AdminUploadFilters {
  status: AdminStatusFilter
  kind: AdminKindFilter
  q: string
}

/**
 * Whether an upload still belongs in a list with these filters after a local change. Only status
 * and kind are checked: a text search is left to the server, on the next refresh.
 */
export function matchesFilters(upload: Pick<AdminUpload, 'status' | 'kind'>, filters: Pick<AdminUploadFilters, 'status' | 'kind'>): boolean {
  return (filters.status === 'all' || upload.status === filters.status)
    && (filters.kind === 'all' || upload.kind === filters.kind)
}
