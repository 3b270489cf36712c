import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loginThroughForm, screenshot } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, inBatches, seedPhoto, setModeration } from '../support/seed'
import { animationsDone } from './support/browser'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

const ORIENTATIONS = [['portrait', { width: 768, height: 1024 }], ['landscape', { width: 1024, height: 768 }]] as const

/**
 * The couple moderating on a tablet held either way (768×1024, 1024×768), at the top of the
 * pending list, as the page first opens: the list starts high enough to be the page's subject,
 * a card fits whole below the sticky toolbar, and "approve what is on screen" approves exactly
 * the cards that are whole on screen. The real server and real uploads.
 */
describe('admin moderation on a tablet held either way (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let watched: WatchedPage | undefined

  beforeAll(async () => {
    await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João' } })
    await setModeration(server.url, server.cookie, 'pre')
  })

  /** The cards as the admin sees them once still: where each is, and whether it is whole below the toolbar. */
  async function layout(page: Page) {
    await animationsDone(page)
    return page.evaluate(() => {
      const toolbar = document.querySelector('[data-testid=bulk-bar]')!.parentElement!.getBoundingClientRect()
      const cards = [...document.querySelectorAll('[data-testid=admin-upload]')].map((card) => {
        const box = card.getBoundingClientRect()
        return { id: card.getAttribute('data-id')!, top: box.top, bottom: box.bottom, whole: box.top >= toolbar.bottom - 0.5 && box.bottom <= window.innerHeight + 0.5 && box.left >= 0 && box.right <= window.innerWidth }
      })
      return { toolbarBottom: toolbar.bottom, cards }
    })
  }

  for (const [orientation, viewport] of ORIENTATIONS) {
    it(`${orientation} (${viewport.width}×${viewport.height}): the first card starts in the top 40 %, one fits whole, and "approve what is on screen" approves exactly the whole ones`, async () => {
      await inBatches(6, 3, i => seedPhoto(server.url, { author: `Convidado ${orientation} ${i + 1}`, message: i % 2 ? 'Felicidades ao casal!' : '' }))
      watched = await pages.watched(viewport)
      const page = watched.page
      await page.goto('/admin/login')
      await loginThroughForm(page)
      await page.waitForURL(url => url.pathname === '/admin')
      await page.locator('[data-testid=admin-uploads][data-view=cards] [data-testid=admin-upload]').first().waitFor()

      const { cards, toolbarBottom } = await layout(page)
      await screenshot(page, `admin-tablet-${orientation}`)
      expect(cards.length).toBeGreaterThanOrEqual(6)
      expect(cards[0]!.top, `first card at ${cards[0]!.top} px, toolbar ends at ${toolbarBottom} px`).toBeLessThanOrEqual(0.4 * viewport.height)
      const whole = cards.filter(card => card.whole).map(card => card.id)
      expect(whole.length).toBeGreaterThanOrEqual(1)
      expect(whole.length).toBeLessThan(cards.length)

      const button = page.locator('[data-testid=approve-visible]')
      await expect.poll(() => button.getAttribute('data-count')).toBe(String(whole.length))
      expect(await button.isDisabled()).toBe(false)
      expect((await button.textContent())!.trim()).toBe(`Aprovar os ${whole.length} da tela`)
      const loaded = cards.map(card => card.id)

      await button.click()
      const dialog = page.locator('[data-testid=confirm-dialog]')
      await dialog.waitFor({ state: 'visible' })
      await dialog.locator('[data-testid=confirm]').click()
      const statusOf = async (id: string) => (await adminRecord(server.url, server.cookie, id)).body.status
      await expect.poll(async () => Promise.all(whole.map(statusOf)), { timeout: 15_000 }).toEqual(whole.map(() => 'approved'))
      const others = loaded.filter(id => !whole.includes(id))
      expect(await Promise.all(others.map(statusOf))).toEqual(others.map(() => 'pending'))
      // What is left stays pending for the next orientation's run to start from a known list.
      await api(server.url, '/api/admin/uploads/bulk', { method: 'POST', cookie: server.cookie, json: { ids: others, action: 'reject' } })
    })

    it(`${orientation}: ticking a card swaps the view tools for the bulk actions in place, and the grid does not move`, async () => {
      await inBatches(3, 3, i => seedPhoto(server.url, { author: `Seleção ${orientation} ${i + 1}` }))
      watched = await pages.watched(viewport)
      const page = watched.page
      await page.goto('/admin/login')
      await loginThroughForm(page)
      await page.waitForURL(url => url.pathname === '/admin')
      const first = page.locator('[data-testid=admin-upload]').first()
      await first.waitFor()
      const before = (await layout(page)).cards[0]!.top
      await first.locator('[data-testid=select]').click()
      await page.locator('[data-testid=bulk-approve]').waitFor({ state: 'visible' })
      expect(await page.locator('[data-testid=approve-visible]').isVisible()).toBe(false)
      // Every bulk action is on screen, in one row.
      const tops = await page.locator('[data-testid=bulk-bar] .buttons > button').evaluateAll(buttons => buttons.map(b => Math.round(b.getBoundingClientRect().top)))
      expect(new Set(tops).size).toBe(1)
      const after = await layout(page)
      expect(Math.abs(after.cards[0]!.top - before)).toBeLessThanOrEqual(1)
      await screenshot(page, `admin-tablet-${orientation}-selected`)
    })
  }
})
