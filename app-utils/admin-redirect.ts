/** Where the dashboard lives; also where login goes when no (acceptable) destination was given. */
export const ADMIN_HOME = '/admin'
export const ADMIN_LOGIN = '/admin/login'

/**
 * The page to return to after logging in, from the `redirect` query value. Only admin paths on
 * this site are followed, so a crafted login link cannot send the admin anywhere else
 * (`//evil.example`, `https://…`, `/\evil`), nor back to the login page itself.
 */
export function safeAdminRedirect(value: unknown): string {
  if (typeof value !== 'string') return ADMIN_HOME
  if (!/^\/admin(?:[/?#]|$)/.test(value)) return ADMIN_HOME
  if (/[\\\s]/.test(value) || value.startsWith('//')) return ADMIN_HOME
  const path = value.split(/[?#]/)[0]!
  if (path === ADMIN_LOGIN || path.startsWith(`${ADMIN_LOGIN}/`) || path.includes('..')) return ADMIN_HOME
  return value
}
