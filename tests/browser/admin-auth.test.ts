import { describe, expect, it } from 'vitest'
import { loginThroughForm, sessionCookie } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server'
import { api } from '../support/http'
import { expectAccessible } from './support/axe'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

describe('admin login and session (browser)', () => {
  const server = useTestServer()
  const pages = useBrowser({ server })
  let watched: WatchedPage | undefined

  async function open(path: string) {
    watched = await pages.watched()
    await watched.page.goto(path)
    return watched.page
  }

  it('serves /admin without a session as an empty shell, never admin markup', async () => {
    const response = await fetch(`${server.url}/admin`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toMatch(/<div id="__nuxt"><\/div>/)
    expect(html).not.toContain('admin-upload')
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/)
  })

  it('opening /admin without a session lands on the login page, remembering where it was going', async () => {
    const page = await open('/admin?aba=evento')
    await page.waitForURL(url => url.pathname === '/admin/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin?aba=evento')
    await expect(page.locator('[name=email]').isVisible()).resolves.toBe(true)
    await expect(page.locator('[data-testid=admin-upload]').count()).resolves.toBe(0)
  })

  it('a wrong password shows an error in Portuguese and stays on the login page', async () => {
    const page = await open('/admin/login')
    await loginThroughForm(page, 'admin@example.com', 'wrong password')
    const error = page.locator('[data-testid=login-error]')
    await error.waitFor({ state: 'visible' })
    expect(await error.textContent()).toContain('E-mail ou senha incorretos.')
    expect(new URL(page.url()).pathname).toBe('/admin/login')
    // The password is cleared for the next try; the email stays.
    expect(await page.locator('[name=password]').inputValue()).toBe('')
    expect(await page.locator('[name=email]').inputValue()).toBe('admin@example.com')
  })

  it('the right password reaches the dashboard, and logging out returns to the login page for good', async () => {
    const page = await open('/admin/login')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin')
    await page.locator('[data-testid=logout]').waitFor()
    expect(await page.locator('header').textContent()).toContain('admin@example.com')
    const cookie = await sessionCookie(watched!.context)

    await page.locator('[data-testid=logout]').click()
    await page.waitForURL(url => url.pathname === '/admin/login')
    // The token is revoked on the server, not only dropped by the browser.
    expect((await api(server.url, '/api/admin/me', { cookie })).status).toBe(401)
    await page.goto('/admin')
    await page.waitForURL(url => url.pathname === '/admin/login')
  })

  it('a session revoked while the dashboard is open sends it to the login page, and back after logging in', async () => {
    const page = await open('/admin/login?redirect=/admin?aba=estatisticas')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin' && url.searchParams.get('aba') === 'estatisticas')
    await page.locator('[data-testid=stats]').waitFor()

    // Another device logs this very session out: the dashboard's next call answers 401.
    const logout = await api(server.url, '/api/admin/logout', { method: 'POST', cookie: await sessionCookie(watched!.context) })
    expect(logout.status).toBe(200)
    await page.waitForURL(url => url.pathname === '/admin/login', { timeout: 15_000 })
    const url = new URL(page.url())
    expect(url.searchParams.get('redirect')).toBe('/admin?aba=estatisticas')
    // (Not just [role=status]: Nuxt's route announcer is one too.)
    expect(await page.locator('[data-testid=login-notice]').textContent()).toContain('Sua sessão terminou')
    await expectAccessible(page, 'the login page after a forced logout')

    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin' && url.searchParams.get('aba') === 'estatisticas')
    await page.locator('[data-testid=stats]').waitFor()
  })

  it('after a forced re-login the email is already filled in, never the password', async () => {
    const page = await open('/admin/login')
    // The admin is rendered in the browser: its form and title come after \`load\`, and axe must
    // look at the page the admin sees, not the empty shell before it mounts.
    await page.locator('[data-testid=login]').waitFor()
    await page.waitForFunction(() => document.title !== '')
    await expectAccessible(page, 'the login page')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin')
    await page.locator('[data-testid=logout]').waitFor()
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(ADMIN_PASSWORD)

    // The session ends elsewhere; the dashboard's next call answers 401.
    expect((await api(server.url, '/api/admin/logout', { method: 'POST', cookie: await sessionCookie(watched!.context) })).status).toBe(200)
    await page.waitForURL(url => url.pathname === '/admin/login', { timeout: 15_000 })
    await page.locator('[data-testid=login-notice]').waitFor()
    await expect.poll(() => page.locator('[name=email]').inputValue()).toBe(ADMIN_EMAIL)
    expect(await page.locator('[name=password]').inputValue()).toBe('')

    // A full reload of the login page (a new tab, the browser restarted) keeps it too.
    await page.reload()
    await expect.poll(() => page.locator('[name=email]').inputValue()).toBe(ADMIN_EMAIL)
    await page.locator('[name=password]').fill(ADMIN_PASSWORD)
    await page.locator('[data-testid=login]').click()
    await page.waitForURL(url => url.pathname === '/admin')
  })

  it('a login link cannot send the admin to another site after logging in', async () => {
    const page = await open('/admin/login?redirect=//evil.example/admin')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin')
    expect(new URL(page.url()).origin).toBe(server.url)
  })

  // Last: it empties this client's failed-login allowance.
  it('too many wrong attempts say how long to wait', async () => {
    for (let i = 0; i < 5; i++) {
      const attempt = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: 'second@example.com', password: `nope ${i}` } })
      expect(attempt.status).toBe(401)
    }
    const page = await open('/admin/login')
    await loginThroughForm(page, 'second@example.com', 'nope again')
    const error = page.locator('[data-testid=login-error]')
    await error.waitFor({ state: 'visible' })
    expect(await error.textContent()).toMatch(/Muitas tentativas erradas\. Tente de novo em (\d+ segundos|1 minuto|\d+ min \d+ s)\./)
  })
})
