import { adminPtBR } from '~~/shared/messages/admin.pt-BR'
import { ADMIN_LOGIN } from '~/utils/admin-redirect'
import { useAdminSessionState } from './useAdminSession'

/** A failed admin call, reduced to what the pages act on. */
export class AdminApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; null when the server was never reached. */
    readonly status: number | null,
    /** The contract's `data.code`, when the answer had one. */
    readonly code: string | null,
    readonly data: Record<string, unknown>,
    /** Seconds from `retry-after`, on a 429. */
    readonly retryAfter: number | null,
  ) {
    super(message)
    this.name = 'AdminApiError'
  }

  get unauthenticated(): boolean {
    return this.status === 401
  }
}

interface FetchFailure {
  statusCode?: number
  data?: unknown
  response?: { status: number, headers: Headers, _data?: unknown }
}

/** Any error $fetch throws (or anything else) as an AdminApiError. */
export function toAdminApiError(error: unknown): AdminApiError {
  if (error instanceof AdminApiError) return error
  const failure = (error ?? {}) as FetchFailure
  const status = failure.response?.status ?? failure.statusCode ?? null
  const body = (failure.data ?? failure.response?._data ?? {}) as { data?: Record<string, unknown> }
  const data = body && typeof body === 'object' && body.data && typeof body.data === 'object' ? body.data : {}
  const code = typeof data.code === 'string' ? data.code : null
  const header = Number(failure.response?.headers.get('retry-after'))
  const retryAfter = Number.isFinite(header) && header > 0
    ? header
    : typeof data.retryAfter === 'number' ? data.retryAfter : null
  return new AdminApiError(describeFailure(status, code), status, code, data, retryAfter)
}

function describeFailure(status: number | null, code: string | null): string {
  const { errors } = adminPtBR
  if (status === null) return errors.network
  if (code && code in errors.byCode) return errors.byCode[code as keyof typeof errors.byCode]!
  return errors.generic
}

export type AdminFetchOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  query?: Record<string, string | number | undefined>
  body?: Record<string, unknown>
}

/**
 * $fetch for the admin API. Every failure comes back as an AdminApiError with a Portuguese
 * message, and any 401 (session expired, revoked, or never there) sends the browser to the login
 * page, which brings the admin back here afterwards.
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
      const failure = toAdminApiError(error)
      if (failure.unauthenticated) sendToLogin()
      throw failure
    }
  }
}
