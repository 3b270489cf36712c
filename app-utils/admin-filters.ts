import type { KindFilter, StatusFilter } from '#shared/enums'
import { newestFirst, type ListOrder } from '#shared/cursor-merge'
import type { ADMIN_UPLOAD_SORTS, AdminUpload } from '#shared/schemas/admin'

export type AdminStatusFilter = StatusFilter
export type AdminKindFilter = KindFilter
export type AdminUploadSort = typeof ADMIN_UPLOAD_SORTS[number]

export interface AdminUploadFilters {
  status: AdminStatusFilter
  kind: AdminKindFilter
  q: string
  sort: AdminUploadSort
  /** One moment's uploads, or '' for every upload. */
  moment: string
  /** One challenge's answers, or '' for every upload. */
  challenge: string
}

/** The server's `sort=hearts` order: most hearted first, ties newest first (docs/api.md). */
export function mostHeartedFirst(a: Pick<AdminUpload, 'hearts' | 'createdAt' | 'id'>, b: Pick<AdminUpload, 'hearts' | 'createdAt' | 'id'>): number {
  return b.hearts - a.hearts || newestFirst(a, b)
}

/** The order the admin's list is in under a sort, for merging a refreshed first page and putting a rolled-back upload back. */
export function uploadOrder(sort: AdminUploadSort): ListOrder<AdminUpload> {
  return sort === 'hearts' ? mostHeartedFirst : newestFirst
}

/**
 * Whether an upload still belongs in a list with these filters after a local change (moved to
 * another moment, say). A text search is left to the server, on the next refresh.
 */
export function matchesFilters(upload: Pick<AdminUpload, 'status' | 'kind'> & Partial<Pick<AdminUpload, 'momentId' | 'challengeId'>>, filters: Pick<AdminUploadFilters, 'status' | 'kind'> & Partial<Pick<AdminUploadFilters, 'moment' | 'challenge'>>): boolean {
  return (filters.status === 'all' || upload.status === filters.status)
    && (filters.kind === 'all' || upload.kind === filters.kind)
    && (!filters.moment || upload.momentId === filters.moment)
    && (!filters.challenge || upload.challengeId === filters.challenge)
}
