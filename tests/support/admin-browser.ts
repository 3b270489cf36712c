import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { watchPage, type WatchedPage } from './watch-page'
import { ADMIN_EMAIL, ADMIN_PASSWORD, ROOT } from './server'

export { FAKE_MEDIA_DEVICES, launchChromium } from './chromium'
export type { WatchedPage } from './watch-page'

export const VIEWPORTS = {
  tablet: { width: 768, height: 1024 },
  laptop: { width: 1280, height: 800 },
} as const

/** A fresh browser context (its own cookies) and page, watched (see watchPage): files on useBrowser use its `watched()`. */
export async function openWatchedPage(browser: Browser, baseURL: string, viewport: { width: number, height: number } = VIEWPORTS.laptop): Promise<WatchedPage> {
  return watchPage(await browser.newContext({ baseURL, viewport, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' }))
}

/** Logs in through the form, the way an admin does. */
export async function loginThroughForm(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  await page.locator('[name=email]').fill(email)
  await page.locator('[name=password]').fill(password)
  await page.locator('[data-testid=login]').click()
}

/** The session cookie of a context as a `name=value` pair, for API calls made beside the browser. */
export async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find(c => c.name === 'em_admin')
  if (!cookie) throw new Error('no admin session cookie in this browser context')
  return `${cookie.name}=${cookie.value}`
}

export const SCREENSHOT_DIR = join(ROOT, 'tests/browser/screenshots')

/** A full-page screenshot in tests/browser/screenshots/ (git-ignored), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
