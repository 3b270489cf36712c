import { ADMIN_LOGIN } from '~/app-utils/admin-redirect'
import { toApiError } from '~/app-utils/api-error'
import { useAdminSessionState } from './useAdminSession'

export type AdminFetchOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | undefined>
  body?: Record<string, unknown>
  headers?: Record<string, string>
  /** ofetch's own hook, passed through (the conditional GET below reads the status and ETag). */
  onResponse?: (context: { response: Response }) => void
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

/** Answers a poller remembers, at most this many (the filters an admin went through lately). */
const REMEMBERED_ANSWERS = 16

/**
 * A GET for the admin's pollers that asks "changed since?": admin answers are never stored by
 * the browser (`private, no-store`), so the poller keeps the last answer and its ETag for each
 * URL itself, sends If-None-Match, and takes a 304 as "the same as before". The server's admin
 * tags change at least every ten minutes, so a remembered answer's signed URLs never outlive it.
 */
export function useConditionalAdminGet() {
  const api = useAdminApi()
  const remembered = new Map<string, { etag: string, body: unknown }>()

  return async function conditionalGet<T>(url: string, query: AdminFetchOptions['query'] = {}): Promise<T> {
    const key = `${url}?${JSON.stringify(Object.entries(query).filter(([, value]) => value !== undefined))}`
    const known = remembered.get(key)
    let etag: string | null = null
    let status = 200
    const body = await api<T>(url, {
      query,
      headers: known ? { 'if-none-match': known.etag } : undefined,
      // ofetch answers a 304 with no data (it throws only from 400 on): the status says which.
      onResponse: ({ response }: { response: Response }) => {
        status = response.status
        etag = response.headers.get('etag')
      },
    })
    if (status === 304 && known) return known.body as T
    remembered.delete(key)
    if (etag) {
      if (remembered.size >= REMEMBERED_ANSWERS) remembered.delete(remembered.keys().next().value!)
      remembered.set(key, { etag, body })
    }
    return body
  }
}
