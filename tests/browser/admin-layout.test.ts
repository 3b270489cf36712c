import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loginThroughForm, screenshot, SCREENSHOT_DIR, VIEWPORTS } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, seedVideo, setModeration, waitForDerived } from '../support/seed'
import { jpeg } from '../support/fixtures'
import { useBrowser } from './support/fixture'

/** Everything a finger is meant to hit, on every admin screen. */
const TARGETS = [
  'button', 'a.admin-button', 'nav a', 'select', 'input:not([type=checkbox]):not([type=radio])',
  'label:has(> input[type=checkbox])', 'label:has(> input[type=radio])',
].join(', ')

/** Targets smaller than 44 × 44 CSS pixels, and whether anything sticks out sideways. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const problems: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (box.height < 44 || box.width < 44) {
        problems.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30) || element.getAttribute('aria-label') || element.getAttribute('name')}" is ${Math.round(box.width)}×${Math.round(box.height)}`)
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth) problems.push(`page is ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px window`)
    return problems
  }, TARGETS)
}

describe('admin layout at tablet and laptop sizes (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })

  beforeAll(async () => {
    await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12' } })
    // A few approved photos (one the cover), then the pending queue of a party in full swing.
    const colours = [{ r: 190, g: 120, b: 90 }, { r: 80, g: 120, b: 170 }, { r: 120, g: 160, b: 90 }, { r: 200, g: 170, b: 60 }, { r: 150, g: 80, b: 130 }]
    const approved = []
    for (const [i, colour] of colours.slice(0, 2).entries()) approved.push(await seedPhoto(server.url, { author: `Convidado ${i + 1}`, bytes: await jpeg(1200, 800, colour) }))
    await waitForDerived(server.url, server.cookie, approved[0]!.id)
    await api(server.url, `/api/admin/uploads/${approved[0]!.id}/cover`, { method: 'POST', cookie: server.cookie })
    await setModeration(server.url, server.cookie, 'pre')
    await seedPhoto(server.url, { author: 'Tia Cida', message: 'Que noite linda! Muitas felicidades aos noivos, que essa alegria dure para sempre.', bytes: await jpeg(800, 1200, colours[2]) })
    await seedVideo(server.url, { author: 'Pedro', message: 'A valsa!' })
    await seedPhoto(server.url, { author: '', message: '', bytes: await jpeg(1600, 900, colours[3]) })
    await seedPhoto(server.url, { author: 'Joana e Marcos', message: 'Amamos!', bytes: await jpeg(1000, 1000, colours[4]) })
    const rejected = await seedPhoto(server.url, { author: 'Spam' })
    await api(server.url, `/api/admin/uploads/${rejected.id}/reject`, { method: 'POST', cookie: server.cookie })
  })

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`login, dashboard, statistics and configuration work at ${viewport.width}×${viewport.height}`, async () => {
      const { page, problems, context } = await pages.watched(viewport)
      try {
        await page.goto('/admin/login')
        await page.locator('[data-testid=login]').waitFor()
        expect(await layoutProblems(page)).toEqual([])
        await screenshot(page, `admin-login-${name}`)
        await loginThroughForm(page, 'admin@example.com', 'not the password')
        await page.locator('[data-testid=login-error]').waitFor({ state: 'visible' })
        await screenshot(page, `admin-login-error-${name}`)

        await loginThroughForm(page)
        await page.waitForURL(url => url.pathname === '/admin')
        await expect.poll(() => page.locator('[data-testid=admin-upload]').count()).toBe(4)
        // Every thumbnail that exists has loaded (the video has no poster frame here).
        await expect.poll(() => page.locator('[data-testid=admin-upload] img').evaluateAll(imgs =>
          imgs.every(img => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0))).toBe(true)
        await page.locator('[data-testid=admin-upload] [data-testid=select]').first().check()
        expect(await layoutProblems(page)).toEqual([])
        await screenshot(page, `admin-dashboard-${name}`)

        // The preview and the delete confirmation, as a finger would meet them.
        await page.locator('[data-testid=admin-upload][data-kind=photo] [data-testid=preview]').last().click()
        await page.locator('[data-testid=preview-image]').waitFor()
        await expect.poll(() => page.locator('[data-testid=preview-image]').evaluate(img => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
        expect(await layoutProblems(page)).toEqual([])
        await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-preview-${name}.png` })
        await page.keyboard.press('Escape')
        await page.locator('[data-testid=admin-upload] [data-testid=delete]').first().click()
        await page.locator('[data-testid=confirm-dialog]').waitFor({ state: 'visible' })
        await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-confirm-${name}.png` })
        await page.locator('[data-testid=confirm-cancel]').click()

        await page.locator('[data-testid=tab-estatisticas]').click()
        await page.locator('[data-testid=hourly-bar]:not([data-count="0"])').first().waitFor()
        expect(await layoutProblems(page)).toEqual([])
        await screenshot(page, `admin-stats-${name}`)

        await page.locator('[data-testid=tab-evento]').click()
        await page.locator('[data-testid=cover-image]').waitFor()
        await expect.poll(() => page.locator('[data-testid=cover-image]').evaluate(img => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
        expect(await layoutProblems(page)).toEqual([])
        await screenshot(page, `admin-configuration-${name}`)

        expect(problems, 'uncaught errors or CSP violations in the page').toEqual([])
      }
      finally {
        await context.close()
      }
    })
  }
})
