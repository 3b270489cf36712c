import type { AdminStats } from '~~/shared/schemas/admin'
import { toAdminApiError } from './useAdminApi'

/** The dashboard's numbers (GET /api/admin/stats). */
export function useAdminStats() {
  const api = useAdminApi()
  const stats = ref<AdminStats | null>(null)
  const error = ref<string | null>(null)

  async function refresh() {
    try {
      stats.value = await api<AdminStats>('/api/admin/stats')
      error.value = null
    }
    catch (failure) {
      error.value = toAdminApiError(failure).message
      throw failure
    }
  }

  return { stats, error, refresh }
}
