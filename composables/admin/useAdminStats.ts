import type { AdminStats } from '#shared/schemas/admin'
import { toApiError } from '~/app-utils/api-error'

/** The dashboard's numbers (GET /api/admin/stats). */
export function useAdminStats() {
  const conditionalGet = useConditionalAdminGet()
  const t = useAdminMessages()
  const stats = ref<AdminStats | null>(null)
  const error = ref<string | null>(null)

  async function refresh() {
    try {
      stats.value = await conditionalGet<AdminStats>('/api/admin/stats')
      error.value = null
    }
    catch (failure) {
      error.value = t.errors.describe(toApiError(failure))
      throw failure
    }
  }

  return { stats, error, refresh }
}
