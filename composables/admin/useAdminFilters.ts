import { KIND_FILTERS, STATUS_FILTERS } from '#shared/enums'
import { ADMIN_UPLOAD_SORTS } from '#shared/schemas/admin'
import type { AdminKindFilter, AdminStatusFilter, AdminUploadFilters, AdminUploadSort } from '~/app-utils/admin-filters'

const STATUSES: readonly AdminStatusFilter[] = STATUS_FILTERS
const KINDS: readonly AdminKindFilter[] = KIND_FILTERS

function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * The moderation filters, kept in the address (`?status=approved&tipo=video&q=maria&ordem=hearts&momento=<id>&desafio=<id>`): a reload,
 * a shared link or a trip through the login page comes back to the same list. The pending queue
 * is the default.
 */
export function useAdminFilters() {
  const route = useRoute()
  const router = useRouter()

  const filters = computed<AdminUploadFilters>(() => {
    const asked = one(route.query.status) as AdminStatusFilter
    const status = STATUSES.includes(asked) ? asked : 'pending'
    const kind = one(route.query.tipo) as AdminKindFilter
    const sort = one(route.query.ordem) as AdminUploadSort
    return {
      status,
      kind: KINDS.includes(kind) ? kind : 'all',
      q: one(route.query.q) ?? '',
      // Only approved uploads can be hearted: the pending queue is always newest first.
      sort: status !== 'pending' && ADMIN_UPLOAD_SORTS.includes(sort) ? sort : 'newest',
      moment: one(route.query.momento) ?? '',
      challenge: one(route.query.desafio) ?? '',
    }
  })

  function update(change: Partial<AdminUploadFilters>) {
    const next = { ...filters.value, ...change }
    return router.replace({
      query: {
        ...route.query,
        status: next.status === 'pending' ? undefined : next.status,
        tipo: next.kind === 'all' ? undefined : next.kind,
        q: next.q.trim() === '' ? undefined : next.q,
        ordem: next.sort === 'newest' ? undefined : next.sort,
        momento: next.moment || undefined,
        desafio: next.challenge || undefined,
      },
    })
  }

  return { filters, update }
}
