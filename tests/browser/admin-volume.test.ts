import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loginThroughForm, screenshot } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, inBatches, seedPhoto, setModeration } from '../support/seed'
import { expectAccessible } from './support/axe'
import { animationsDone } from './support/browser'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

const PORTRAIT = { width: 820, height: 1180 }
const LANDSCAPE = { width: 1180, height: 820 }
/** Seeded pending uploads: more than one page (24) of the list. */
const PENDING = 40

/** Ids of the tiles wholly inside the window, by their bounding boxes once they have stopped moving. */
async function wholeTilesOnScreen(page: Page): Promise<string[]> {
  await animationsDone(page)
  return page.locator('[data-testid=admin-upload]').evaluateAll(tiles => tiles.filter((tile) => {
    const box = tile.getBoundingClientRect()
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth && box.width > 0
  }).map(tile => tile.getAttribute('data-id')!))
}

/**
 * Ids of the cards wholly visible: inside the window and below the sticky toolbar (a card under
 * it cannot be seen), by their bounding boxes.
 */
async function wholeCardsBelowToolbar(page: Page): Promise<string[]> {
  await animationsDone(page)
  return page.locator('[data-testid=admin-upload]').evaluateAll((cards) => {
    const covered = Math.max(0, document.querySelector('[data-testid=bulk-bar]')!.parentElement!.getBoundingClientRect().bottom)
    return cards.filter((card) => {
      const box = card.getBoundingClientRect()
      return box.top >= covered - 0.5 && box.left >= 0 && box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth && box.width > 0
    }).map(card => card.getAttribute('data-id')!)
  })
}

describe('admin moderation at volume: dense grid, ranges, bulk on screen (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let watched: WatchedPage | undefined
  let page: Page

  const tile = (id: string) => page.locator(`[data-testid=admin-upload][data-id="${id}"]`)
  const shownIds = () => page.locator('[data-testid=admin-upload]').evaluateAll(els => els.map(el => el.getAttribute('data-id')!))
  const statusOf = async (id: string) => (await adminRecord(server.url, server.cookie, id)).body.status

  beforeAll(async () => {
    await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João', eventDate: '2026-12-12' } })
    await setModeration(server.url, server.cookie, 'pre')
  })

  /** A fresh tablet (its own storage), logged in, on the pending queue. */
  async function openTablet(viewport = PORTRAIT) {
    watched = await pages.watched(viewport)
    page = watched.page
    await page.goto('/admin/login')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin')
    await page.locator('[data-testid=admin-upload]').first().waitFor()
  }

  async function seedPending(count: number, label: string) {
    return inBatches(count, 4, i => seedPhoto(server.url, { author: `${label} ${i + 1}` }))
  }

  it(`dense mode on a portrait tablet (820×1180) shows at least 12 whole tiles with author and status, and is remembered`, async () => {
    await seedPending(PENDING, 'Convidado')
    await openTablet(PORTRAIT)
    await expectAccessible(page, 'the moderation list (cards)')
    await page.locator('[data-testid=view-dense]').click()
    await page.locator('[data-testid=admin-uploads][data-view=dense]').waitFor()
    expect(await page.locator('[data-testid=view-dense]').getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => page.locator('[data-testid=admin-upload]').count()).toBe(24)

    const whole = await wholeTilesOnScreen(page)
    expect(whole.length).toBeGreaterThanOrEqual(12)
    for (const id of whole) {
      expect(await tile(id).locator('[data-testid=author]').textContent()).toMatch(/Convidado \d+/)
      expect(await tile(id).locator('.status-badge').textContent()).toBe('Pendente')
    }
    // Every control of a tile lies wholly inside it (nothing clipped), each a 44 px target.
    const clipped = await page.locator('[data-testid=admin-upload]').evaluateAll(tiles => tiles.flatMap((tile) => {
      const outer = tile.getBoundingClientRect()
      return [...tile.querySelectorAll('button, input')].filter((control) => {
        const box = control.getBoundingClientRect()
        if (box.width === 0) return false
        return box.left < outer.left || box.right > outer.right || box.width < 44 || box.height < 44
      }).map(control => `${tile.getAttribute('data-id')} ${control.getAttribute('data-testid')}`)
    }))
    expect(clipped).toEqual([])
    await expectAccessible(page, 'the dense grid, portrait')
    await screenshot(page, 'admin-dense-portrait')

    // Remembered on this device: a reload comes back to the grid.
    await page.reload()
    await page.locator('[data-testid=admin-uploads][data-view=dense]').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('event-media-admin-view'))).toBe('dense')
  })

  it('dense mode in landscape (1180×820) shows at least 12 whole tiles, nothing sticking out sideways', async () => {
    await openTablet(LANDSCAPE)
    await page.locator('[data-testid=view-dense]').click()
    await page.locator('[data-testid=admin-uploads][data-view=dense]').waitFor()
    expect((await wholeTilesOnScreen(page)).length).toBeGreaterThanOrEqual(12)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expectAccessible(page, 'the dense grid, landscape')
    await screenshot(page, 'admin-dense-landscape')
  })

  it('the selection control is a 44 px target in both views, and the dashboard has an h1', async () => {
    await openTablet(PORTRAIT)
    for (const view of ['cards', 'dense'] as const) {
      await page.locator(`[data-testid=view-${view}]`).click()
      await page.locator(`[data-testid=admin-uploads][data-view=${view}]`).waitFor()
      await animationsDone(page)
      const boxes = await page.locator('[data-testid=admin-upload] [data-testid=select]').evaluateAll(inputs => inputs.map((input) => {
        const box = input.getBoundingClientRect()
        return { width: box.width, height: box.height }
      }))
      expect(boxes.length).toBeGreaterThan(0)
      for (const box of boxes) {
        expect(box.width, view).toBeGreaterThanOrEqual(44)
        expect(box.height, view).toBeGreaterThanOrEqual(44)
      }
    }
    expect(await page.locator('h1').count()).toBe(1)
  })

  it('in selection mode a tap on a tile selects it; "select range" and shift+click select everything between', async () => {
    await openTablet(PORTRAIT)
    await page.locator('[data-testid=view-dense]').click()
    const ids = await shownIds()
    expect(ids).toHaveLength(24)

    // Not in selection mode yet: a tap on the picture opens the preview.
    await tile(ids[0]!).locator('[data-testid=preview]').click()
    await page.locator('[data-testid=preview-dialog]').waitFor()
    await page.keyboard.press('Escape')

    // The checkbox starts selection mode; then a tap anywhere on a tile (its picture too) selects it.
    await tile(ids[1]!).locator('[data-testid=select]').click()
    await tile(ids[2]!).locator('[data-testid=preview]').click()
    await tile(ids[3]!).locator('[data-testid=author]').click()
    expect(await page.locator('[data-testid=preview-dialog][open]').count()).toBe(0)
    expect(await page.locator('[data-testid=bulk-bar]').textContent()).toContain('3 selecionados')

    // A tablet: "Selecionar intervalo", then a tap on the far end.
    await page.locator('[data-testid=select-range]').click()
    expect(await page.locator('[data-testid=select-range]').getAttribute('aria-pressed')).toBe('true')
    await tile(ids[9]!).click()
    expect(await page.locator('[data-testid=bulk-bar]').textContent()).toContain('9 selecionados')
    expect(await page.locator('[data-testid=select-range]').getAttribute('aria-pressed')).toBe('false')
    const checked = () => page.locator('[data-testid=admin-upload]').evaluateAll(els => els
      .filter(el => (el.querySelector('[data-testid=select]') as HTMLInputElement).checked)
      .map(el => el.getAttribute('data-id')))
    expect(await checked()).toEqual(ids.slice(1, 10))

    // A laptop: shift+click extends from the last one ticked.
    await tile(ids[12]!).click({ modifiers: ['Shift'] })
    expect(await checked()).toEqual(ids.slice(1, 13))
    await page.locator('[data-testid=bulk-bar]').getByRole('button', { name: 'Limpar seleção' }).click()
    expect(await checked()).toEqual([])
  })

  it('a bulk approve of a range far down the list keeps the scroll and the focus where they were', async () => {
    await openTablet(PORTRAIT)
    await page.locator('[data-testid=view-dense]').click()
    const ids = await shownIds()
    // The admin scrolled down to the last rows on screen.
    await tile(ids[16]!).scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollBy(0, 200))
    const scrolled = await page.evaluate(() => window.scrollY)
    expect(scrolled).toBeGreaterThan(300)
    // The height the range's leaving takes from the page: from its first tile to the one after it.
    const lost = (await tile(ids[20]!).boundingBox())!.y - (await tile(ids[16]!).boundingBox())!.y

    await tile(ids[16]!).locator('[data-testid=select]').click()
    await tile(ids[19]!).click({ modifiers: ['Shift'] })
    expect(await page.locator('[data-testid=bulk-bar]').textContent()).toContain('4 selecionados')
    await page.locator('[data-testid=bulk-approve]').click()
    for (const id of ids.slice(16, 20)) await tile(id).waitFor({ state: 'detached' })
    await expect.poll(async () => Promise.all(ids.slice(16, 20).map(statusOf))).toEqual(['approved', 'approved', 'approved', 'approved'])

    // Still there: not thrown to the top, and the focus on the upload that followed the range.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(ids[20])
    // The page lost those tiles, so it may be scrolled at most as far as it then went: never back
    // to the top, never further down. The list's refresh (every 5 s) may then have filled its first
    // page again below, making the page as long as before without moving the view (the last CI:
    // scrolled 737, the page shortened to 522 and grown back): so up to `lost` above where the
    // page now ends.
    const after = await page.evaluate(() => ({ y: window.scrollY, max: document.documentElement.scrollHeight - window.innerHeight }))
    const said = JSON.stringify({ scrolled, lost, after })
    expect(after.y, said).toBeGreaterThan(0)
    expect(after.y, said).toBeLessThanOrEqual(scrolled + 2)
    expect(after.y, said).toBeGreaterThanOrEqual(Math.min(scrolled, after.max) - lost - 2)
    const next = await tile(ids[20]!).boundingBox()
    expect(next!.y).toBeGreaterThanOrEqual(0)
    expect(next!.y + next!.height).toBeLessThanOrEqual(PORTRAIT.height)
    // The keyboard carries on from there.
    await page.keyboard.press('a')
    await tile(ids[20]!).waitFor({ state: 'detached' })
    await expect.poll(() => statusOf(ids[20]!)).toBe('approved')
  })

  for (const [orientation, viewport] of [['portrait', PORTRAIT], ['landscape', LANDSCAPE]] as const) {
    it(`"approve what is on screen" (${orientation} tablet) counts only the cards wholly visible, names that count, and approves nothing else`, async () => {
      await seedPending(8, `Tela ${orientation}`)
      await openTablet(viewport)
      await page.locator('[data-testid=view-cards]').click()
      await page.locator('[data-testid=admin-uploads][data-view=cards]').waitFor()
      await expect.poll(() => page.locator('[data-testid=admin-upload]').count()).toBeGreaterThanOrEqual(8)
      // Scrolled so that the second row starts just below the stuck toolbar: the first row is
      // partly under it, and a row further down is cut by the screen's edge.
      await page.evaluate(() => {
        const cards = [...document.querySelectorAll('[data-testid=admin-upload]')]
        const firstTop = cards[0]!.getBoundingClientRect().top
        const secondRow = cards.find(card => card.getBoundingClientRect().top > firstTop + 1) ?? cards[0]!
        const bar = document.querySelector('[data-testid=bulk-bar]')!.parentElement!
        const stuckBottom = (Number.parseFloat(getComputedStyle(bar).top) || 0) + bar.getBoundingClientRect().height
        window.scrollBy(0, secondRow.getBoundingClientRect().top - stuckBottom - 10)
      })
      const button = page.locator('[data-testid=approve-visible]')
      let whole: string[] = []
      let counted = -1
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await page.waitForTimeout(100)) {
        whole = await wholeCardsBelowToolbar(page)
        counted = Number(await button.getAttribute('data-count'))
        if (counted === whole.length && whole.length > 0) break
      }
      expect({ counted, whole: whole.length, band: await page.evaluate(() => [document.querySelector('[data-testid=bulk-bar]')!.parentElement!.getBoundingClientRect().bottom, window.scrollY, window.innerHeight]) })
        .toMatchObject({ counted: whole.length })
      expect(whole.length).toBeGreaterThan(0)
      const loaded = await shownIds()
      expect(whole.length).toBeLessThan(loaded.length)
      expect(await button.textContent()).toContain(`Aprovar os ${whole.length} da tela`)

      await button.click()
      const dialog = page.locator('[data-testid=confirm-dialog]')
      await dialog.waitFor({ state: 'visible' })
      expect(await dialog.locator('h2').textContent()).toBe(`Aprovar ${whole.length} ${whole.length === 1 ? 'envio' : 'envios'}?`)
      // Its confirm button is the approve colour (the approve button's own), not the delete red.
      const colours = await page.evaluate(() => ({
        confirm: getComputedStyle(document.querySelector('[data-testid=confirm-dialog] [data-testid=confirm]')!).backgroundColor,
        approve: getComputedStyle(document.querySelector('[data-testid=approve-visible]')!).backgroundColor,
        danger: getComputedStyle(document.documentElement).getPropertyValue('--color-danger').trim(),
      }))
      expect(colours.confirm).toBe(colours.approve)
      expect(colours.confirm).not.toBe('rgb(161, 38, 47)')
      expect(colours.danger).toBe('#a1262f')
      await expectAccessible(page, `the "approve what is on screen" confirmation, ${orientation}`)
      await dialog.locator('[data-testid=confirm]').click()

      await expect.poll(async () => Promise.all(whole.map(statusOf)), { timeout: 15_000 }).toEqual(whole.map(() => 'approved'))
      const others = loaded.filter(id => !whole.includes(id))
      expect(await Promise.all(others.map(statusOf))).toEqual(others.map(() => 'pending'))
    })
  }

  it('ticking the first upload keeps the grid still; the dense grid shows whole names on two lines and marks a message', async () => {
    const [long] = [await seedPhoto(server.url, { author: 'Dona Iolanda Figueiredo', message: 'Felicidades ao casal!' })]
    const plain = await seedPhoto(server.url, { author: 'Sem Palavras' })
    await openTablet(PORTRAIT)
    await page.locator('[data-testid=view-dense]').click()
    await tile(long!.id).waitFor()
    const ids = await shownIds()
    const firstTop = async () => {
      await animationsDone(page)
      return (await tile(ids[0]!).boundingBox())!.y
    }
    const before = await firstTop()
    await tile(ids[0]!).locator('[data-testid=select]').click()
    await page.locator('[data-testid=bulk-approve]').waitFor({ state: 'visible' })
    expect(Math.abs((await firstTop()) - before)).toBeLessThanOrEqual(1)
    await page.locator('[data-testid=bulk-bar]').getByRole('button', { name: 'Limpar seleção' }).click()
    await page.locator('[data-testid=bulk-approve]').waitFor({ state: 'hidden' })
    expect(Math.abs((await firstTop()) - before)).toBeLessThanOrEqual(1)

    // The whole name, wrapped, nothing cut; a mark for the message (its words in the mark's title).
    const author = tile(long!.id).locator('[data-testid=author]')
    expect(await author.textContent()).toContain('Dona Iolanda Figueiredo')
    const fits = await author.evaluate(el => ({ whole: el.scrollHeight <= el.clientHeight + 1, lines: Math.round(el.clientHeight / Number.parseFloat(getComputedStyle(el).lineHeight)) }))
    expect(fits).toEqual({ whole: true, lines: 2 })
    expect(await tile(long!.id).locator('[data-testid=has-message]').getAttribute('title')).toBe('Felicidades ao casal!')
    expect(await tile(plain.id).locator('[data-testid=has-message]').count()).toBe(0)
    await screenshot(page, 'admin-dense-names')
  })

  it('every admin tab passes the accessibility check, with the preview open too', async () => {
    await seedPending(2, 'Ainda')
    await openTablet(PORTRAIT)
    await page.locator('[data-testid=view-cards]').click()
    await expectAccessible(page, 'the moderation tab (cards)')
    await page.locator('[data-testid=admin-upload] [data-testid=preview]').first().click()
    await page.locator('[data-testid=preview-dialog]').waitFor()
    await expectAccessible(page, 'the preview dialog')
    await page.keyboard.press('Escape')
    await page.locator('[data-testid=tab-estatisticas]').click()
    await page.locator('[data-testid=stats]').waitFor()
    await expectAccessible(page, 'the statistics tab')
    await page.locator('[data-testid=tab-evento]').click()
    await page.locator('[data-testid=event-form]').waitFor()
    await expectAccessible(page, 'the event tab')
    expect(await page.locator('h1').count()).toBe(1)
  })
})
