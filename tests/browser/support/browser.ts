import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from '../../support/chromium'

export const PHONE = { width: 390, height: 844 }
export const DESKTOP = { width: 1920, height: 1080 }

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../screenshots')

/**
 * Waits until the page's finite animations have ended, so what is measured is the page at rest:
 * a tile still fading in (the admin list's 0.25 s card-in) sits a few pixels higher and reads as
 * a paler colour than anyone sees a moment later. On an idle machine a test gets there within
 * those 0.25 s.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter(animation => animation.effect?.getTiming().iterations !== Infinity)
    .map(animation => animation.finished.catch(() => undefined))))
}

/** Debian's Chromium, headless (tests/support/chromium.ts); files on useBrowser get theirs from the fixture. */
export const launchBrowser = (): Promise<Browser> => launchChromium()

/** A phone: narrow, touch, high density (the way guests see the pages). */
export function phoneContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR' })
}

export function desktopContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: DESKTOP, locale: 'pt-BR' })
}

/** Writes tests/browser/screenshots/<name>.png (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage })
}

/**
 * On a slideshow whose page clock is installed (`page.clock.install()` before it loads): lets `ms`
 * of the slide's hold pass at once, but only while every slide is shown whole. A slide still
 * loading keeps its real time, so its load deadline never passes for want of a moment.
 */
export async function skipSlideHold(page: Page, ms: number): Promise<boolean> {
  const settled = await page.evaluate(() => document.querySelectorAll('.slideshow-slide:not(.slideshow-slide--ready)').length === 0)
  if (settled) await page.clock.fastForward(ms)
  return settled
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function until<T>(check: () => Promise<T> | T, timeoutMs = 30_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 50))
  }
}
