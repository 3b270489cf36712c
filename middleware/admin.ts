import { ADMIN_LOGIN } from '~/app-utils/admin-redirect'

/**
 * Guard of the admin dashboard: without a valid session the browser goes to the login page, which
 * sends it back here afterwards. Admin pages render in the browser only (routeRules), so this
 * runs there, before any admin data is asked for.
 */
export default defineNuxtRouteMiddleware(async (to) => {
  if (import.meta.server) return
  const { email, check } = useAdminSession()
  if (email.value) return
  let signedIn = false
  try {
    signedIn = await check()
  }
  catch {
    // The server could not say (offline, database busy): let the page load; its own calls will
    // show the problem, and a 401 among them still leads to the login page.
    return
  }
  if (!signedIn) return navigateTo({ path: ADMIN_LOGIN, query: { redirect: to.fullPath } }, { replace: true })
})
