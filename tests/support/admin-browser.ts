import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { ADMIN_EMAIL, ADMIN_PASSWORD, ROOT } from './server'

/** Debian's Chromium, headless, with nothing that would reach outside this machine. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  })
}

/** Chromium's own fake microphone and camera (a beep), granted without a prompt: the recorder's tests. */
export const FAKE_MEDIA_DEVICES = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']

export const VIEWPORTS = {
  tablet: { width: 768, height: 1024 },
  laptop: { width: 1280, height: 800 },
} as const

export interface WatchedPage {
  context: BrowserContext
  page: Page
  /** Uncaught errors, CSP violations and console errors the page produced so far. */
  problems: string[]
}

// Error answers the tests provoke on purpose (a wrong password, a revoked session, a refused
// action) show up in the console as failed loads: the server's contract, not the page's fault.
const HTTP_ERROR_STATUS = /^Failed to load resource: the server responded with a status of \d{3}/

/**
 * A fresh browser context (its own cookies) and page, watched for what must never happen: an
 * uncaught error, a Content-Security-Policy violation, an error logged to the console.
 */
export async function openWatchedPage(browser: Browser, baseURL: string, viewport: { width: number, height: number } = VIEWPORTS.laptop): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })
  const page = await context.newPage()
  const problems: string[] = []
  // Injected by the browser itself, so the page's CSP does not apply to it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`)
    })
  })
  page.on('pageerror', error => problems.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const text = message.text()
    if (HTTP_ERROR_STATUS.test(text)) return
    problems.push(`console: ${text}`)
  })
  return { context, page, problems }
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
