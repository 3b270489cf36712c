import type { Browser } from 'playwright-core'

/**
 * The `/_nuxt/*.js` a first visit of `path` loads, with no service worker (so every script is a
 * request of the page's own); signed in when given the admin's session cookie (`name=value`).
 */
export async function scriptsOfFirstVisit(browser: Browser, baseURL: string, path: string, cookie?: string): Promise<Set<string>> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL, serviceWorkers: 'block' })
  try {
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string]
      await context.addCookies([{ name, value, url: baseURL }])
    }
    const scripts = new Set<string>()
    context.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/_nuxt/') && pathname.endsWith('.js')) scripts.add(pathname)
    })
    const page = await context.newPage()
    await page.goto(path, { waitUntil: 'networkidle' })
    return scripts
  }
  finally {
    await context.close()
  }
}

/** The guest pages a phone opens: whatever they load is guest code. */
export const GUEST_PAGES = ['/', '/enviar', '/galeria', '/galeria?slideshow=1', '/recado'] as const

/**
 * The admin's own code, found by use rather than by name (any build can be measured): the scripts
 * /admin/login and a signed-in /admin load that no guest page's first visit loads. Also answers
 * the guest pages' scripts.
 */
export async function scriptsByAudience(browser: Browser, baseURL: string, cookie: string): Promise<{ admin: Set<string>, guest: Set<string> }> {
  const admin = new Set([...await scriptsOfFirstVisit(browser, baseURL, '/admin/login'), ...await scriptsOfFirstVisit(browser, baseURL, '/admin', cookie)])
  const guest = new Set<string>()
  for (const path of GUEST_PAGES) for (const script of await scriptsOfFirstVisit(browser, baseURL, path)) guest.add(script)
  for (const script of guest) admin.delete(script)
  return { admin, guest }
}
