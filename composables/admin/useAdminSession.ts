import { toApiError } from '~/app-utils/api-error'
import { ADMIN_LAST_EMAIL_KEY } from '~/app-utils/storage-keys'

/** The signed-in admin's email, once known in this tab (null: unknown or signed out). */
export function useAdminSessionState() {
  return useState<string | null>('admin-email', () => null)
}

/**
 * The email of the last admin who signed in on this device, so that a forced re-login (the
 * session expired mid-party) only asks for the password. Never the password.
 */
export function rememberedAdminEmail(): string {
  try {
    return localStorage.getItem(ADMIN_LAST_EMAIL_KEY) ?? ''
  }
  catch {
    // Storage refused (private mode, a strict policy): the field simply starts empty.
    return ''
  }
}

function rememberAdminEmail(email: string) {
  try {
    localStorage.setItem(ADMIN_LAST_EMAIL_KEY, email)
  }
  catch {
    // Not remembered: only a convenience.
  }
}

/** Who is signed in, and signing in and out. */
export function useAdminSession() {
  const email = useAdminSessionState()

  /** Asks the server; true when the cookie holds a valid session. */
  async function check(): Promise<boolean> {
    try {
      const me = await $fetch<{ email: string }>('/api/admin/me', { retry: 0 })
      email.value = me.email
      return true
    }
    catch (error) {
      const failure = toApiError(error)
      email.value = null
      if (failure.unauthenticated) return false
      throw failure
    }
  }

  /** Throws an ApiError (INVALID_CREDENTIALS, RATE_LIMITED with retryAfter, …) on failure. */
  async function login(credentials: { email: string, password: string }): Promise<void> {
    try {
      const me = await $fetch<{ email: string }>('/api/admin/login', { method: 'POST', body: credentials, retry: 0 })
      email.value = me.email
      rememberAdminEmail(credentials.email)
    }
    catch (error) {
      throw toApiError(error)
    }
  }

  async function logout(): Promise<void> {
    try {
      await $fetch('/api/admin/logout', { method: 'POST', retry: 0 })
    }
    catch (error) {
      const failure = toApiError(error)
      // A session that already ended is as logged out as it gets.
      if (!failure.unauthenticated) throw failure
    }
    email.value = null
    forgetPrivateMedia()
  }

  return { email, check, login, logout }
}
