import { ADMIN_LOGIN } from '~/utils/admin-redirect'
import { toApiError } from '~/utils/api-error'
import { useAdminSessionState } from './useAdminSession'

export type AdminFetchOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  query?: Record<string, string | number | undefined>
  body?: Record<string, unknown>
}

/**
 * $fetch for the admin API. Every failure comes back as an ApiError (its words come from
 * `useAdminMessages().errors.describe`), and any 401 (session expired, revoked, or never there)
 * sends the browser to the login page, which brings the admin back here afterwards.
 */
export function useAdminApi() {
  const router = useRouter()
  const session = useAdminSessionState()

  function sendToLogin() {
    const current = router.currentRoute.value
    session.value = null
    if (current.path === ADMIN_LOGIN) return
    void router.replace({ path: ADMIN_LOGIN, query: { redirect: current.fullPath, expired: '1' } })
  }

  return async function adminFetch<T>(url: string, options: AdminFetchOptions = {}): Promise<T> {
    try {
      // Plain `string` URLs: Nitro's typed-route inference does not help with ids built at run time.
      return await ($fetch as (url: string, options: object) => Promise<T>)(url, { ...options, retry: 0 })
    }
    catch (error) {
      const failure = toApiError(error)
      if (failure.unauthenticated) sendToLogin()
      throw failure
    }
  }
}
