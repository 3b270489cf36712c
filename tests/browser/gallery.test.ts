import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api, login } from '../helpers/http'
import { startServer, type TestServer } from '../helpers/server'
import { desktopContext, launchBrowser, phoneContext, screenshot, until } from './support/browser'
import { FakeGallery, standInForQrCode } from './support/fake-gallery'

/**
 * /galeria and the slideshow, driven through the contract of GET /api/gallery. The endpoint is
 * another issue's (4); on a branch without it these tests serve the contract from the browser
 * (FakeGallery) while everything else — pages, server render, event info — is the real server.
 * gallery-real.test.ts runs the same checks against the real endpoint once it exists.
 */
describe('gallery and slideshow against the gallery contract (served by a fake /api/gallery)', () => {
  let server: TestServer
  let browser: Browser
  let context: BrowserContext | undefined

  beforeAll(async () => {
    server = await startServer()
    const cookie = await login(server.url)
    await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12' }, cookie })
    browser = await launchBrowser()
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  /** 30 items: photos with and without words, videos with a poster and two without one. */
  async function gallery(count = 30): Promise<FakeGallery> {
    const fake = new FakeGallery()
    for (let i = 1; i <= count; i++) {
      if (i % 7 === 0) await fake.approve('video', `Convidado ${i}`, '', { thumb: i % 14 !== 0 })
      else await fake.approve('photo', i % 3 ? `Convidado ${i}` : '', i % 2 ? `Mensagem número ${i} para os noivos` : '')
    }
    return fake
  }

  async function open(kind: 'phone' | 'desktop', fake: FakeGallery, path = '/galeria'): Promise<Page> {
    context = kind === 'phone' ? await phoneContext(browser, server.url) : await desktopContext(browser, server.url)
    await fake.install(context)
    await standInForQrCode(context, server.url)
    const page = await context.newPage()
    await page.goto(path)
    return page
  }

  const tiles = (page: Page) => page.locator('[data-testid=gallery-item]')
  const tileIds = (page: Page) => tiles(page).evaluateAll(els => els.map(el => el.getAttribute('data-id')))
  const columns = (page: Page) => page.locator('.gallery__grid').evaluate(el => getComputedStyle(el).gridTemplateColumns.split(' ').length)

  it('phone: a two-column grid of lazy tiles, video tiles with a frame and a play mark, load more to the end', async () => {
    const fake = await gallery()
    const page = await open('phone', fake)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    expect(await tileIds(page)).toEqual(fake.items.slice(0, 24).map(item => item.id))
    expect(await columns(page)).toBe(2)
    const kinds = await tiles(page).evaluateAll(els => els.map(el => el.getAttribute('data-kind')))
    expect(kinds).toEqual(fake.items.slice(0, 24).map(item => item.kind))
    // Thumbnails are small images loaded lazily.
    const images = await tiles(page).locator('img').evaluateAll(els => els.map(el => [el.getAttribute('loading'), el.getAttribute('src')]))
    expect(images.every(([loading]) => loading === 'lazy')).toBe(true)
    expect(images.every(([, src]) => /-(thumb|poster)\.jpg$/.test(src!))).toBe(true)
    // Videos: a play mark on every one; without a poster, the video itself draws its first frame.
    const noPoster = fake.items.slice(0, 24).find(item => item.kind === 'video' && !item.thumbUrl)!
    const tile = page.locator(`[data-testid=gallery-item][data-id="${noPoster.id}"]`)
    await tile.scrollIntoViewIfNeeded()
    const video = tile.locator('video')
    await video.waitFor()
    expect(await video.getAttribute('preload')).toBe('metadata')
    expect(await video.evaluate(el => (el as HTMLVideoElement).muted)).toBe(true)
    expect(await video.getAttribute('src')).toBe(`${noPoster.url}#t=0.1`)
    expect(await page.locator('[data-testid=gallery-item][data-kind=video] .gallery-tile__play').count()).toBe(await page.locator('[data-testid=gallery-item][data-kind=video]').count())

    await page.evaluate(() => window.scrollTo(0, 0))
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=gallery-item] img')).slice(0, 6).every(img => (img as HTMLImageElement).complete))
    await screenshot(page, 'galeria-phone')

    await page.click('[data-testid=load-more]')
    await until(async () => (await tiles(page).count()) === 30, 15_000, 'second page')
    expect(await tileIds(page)).toEqual(fake.items.map(item => item.id))
    // The last page: no more button.
    await until(async () => (await page.locator('[data-testid=load-more]').count()) === 0, 5000, 'no load more')
  })

  it('phone: the viewer shows author and message, follows swipes and arrow keys, closes with Escape', async () => {
    const fake = await gallery()
    const page = await open('phone', fake)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    const [first, second, third] = fake.items
    await tiles(page).nth(1).click()
    const viewer = page.locator('[data-testid=viewer]')
    await viewer.waitFor()
    expect(await viewer.getAttribute('data-id')).toBe(second!.id)
    expect(await page.textContent('[data-testid=viewer-author]')).toBe(second!.author || 'Convidado')
    if (second!.message) expect(await page.textContent('[data-testid=viewer-message]')).toBe(second!.message)
    await page.waitForFunction(() => (document.querySelector('[data-testid=viewer] img') as HTMLImageElement | null)?.complete)
    await screenshot(page, 'viewer-phone')

    await page.keyboard.press('ArrowRight')
    await until(async () => (await viewer.getAttribute('data-id')) === third!.id, 5000, 'arrow right')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await until(async () => (await viewer.getAttribute('data-id')) === first!.id, 5000, 'arrow left')

    // A finger swiping right to left shows the next one.
    const stage = page.locator('.gallery-viewer__stage')
    const box = (await stage.boundingBox())!
    const y = box.y + box.height / 2
    await stage.dispatchEvent('pointerdown', { clientX: box.x + box.width * 0.8, clientY: y, pointerType: 'touch', isPrimary: true })
    await stage.dispatchEvent('pointerup', { clientX: box.x + box.width * 0.2, clientY: y + 10, pointerType: 'touch', isPrimary: true })
    await until(async () => (await viewer.getAttribute('data-id')) === second!.id, 5000, 'swipe')

    await page.keyboard.press('Escape')
    await until(async () => (await viewer.count()) === 0, 5000, 'closed')
    // Focus goes back to the tile the viewer was opened from.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(second!.id)
  })

  it('new approvals appear without a reload and rejected ones leave (page 1 polled)', async () => {
    const fake = await gallery(10)
    const page = await open('phone', fake)
    await until(async () => (await tiles(page).count()) === 10, 15_000, 'items')
    expect(await page.locator('[data-testid=load-more]').count()).toBe(0)
    const fresh = await fake.approve('photo', 'Recém-chegada', 'Oi!')
    const gone = fake.items[3]!
    fake.remove(gone.id)
    await until(async () => (await tileIds(page))[0] === fresh.id, 15_000, 'new item on top')
    expect(await tileIds(page)).not.toContain(gone.id)
    expect(await tiles(page).count()).toBe(10)
  })

  it('desktop: more columns, and the viewer with arrows', async () => {
    const fake = await gallery()
    const page = await open('desktop', fake)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    expect(await columns(page)).toBe(6)
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=gallery-item] img')).every(img => (img as HTMLImageElement).complete))
    await screenshot(page, 'galeria-desktop')
    await tiles(page).first().focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=viewer]').waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid=viewer] img') as HTMLImageElement | null)?.complete)
    await screenshot(page, 'viewer-desktop')
    await page.click('[aria-label="Próxima"]')
    await until(async () => (await page.getAttribute('[data-testid=viewer]', 'data-id')) === fake.items[1]!.id, 5000, 'next button')
  })

  it('slideshow: newest first, author and message over it, QR to /enviar, new approvals next, rejected gone, wake lock, no cursor', async () => {
    const fake = await gallery(6)
    context = await desktopContext(browser, server.url)
    await fake.install(context)
    await standInForQrCode(context, server.url)
    const page = await context.newPage()
    await page.addInitScript(() => {
      // Headless Chromium refuses real wake locks: count the requests and let the test release them.
      const state = { requests: 0, held: [] as EventTarget[] }
      Object.assign(window, { wakeLockState: state })
      Object.defineProperty(navigator, 'wakeLock', {
        value: {
          request: async () => {
            state.requests++
            const sentinel = Object.assign(new EventTarget(), {
              released: false,
              release: async () => {
                sentinel.released = true
                sentinel.dispatchEvent(new Event('release'))
              },
            })
            state.held.push(sentinel)
            return sentinel
          },
        },
      })
    })
    await page.goto('/galeria?slideshow=1&segundos=2')
    const show = page.locator('[data-testid=slideshow]')
    await until(async () => (await show.getAttribute('data-id')) === fake.items[0]!.id, 20_000, 'newest first')
    expect(await show.evaluate(el => getComputedStyle(el).cursor)).toBe('none')
    expect(await page.getAttribute('.slideshow__qr img', 'src')).toBe('/api/qrcode?format=svg')
    await page.waitForFunction(() => (document.querySelector('.slideshow__qr img') as HTMLImageElement).naturalWidth > 0)
    const newest = fake.items[0]!
    if (newest.author) expect(await page.textContent('.slideshow__author')).toBe(newest.author)

    // It moves on by itself, in the gallery's order.
    await until(async () => (await show.getAttribute('data-id')) === fake.items[1]!.id, 15_000, 'second slide')
    expect(await page.locator('.slideshow-slide').count()).toBeLessThanOrEqual(3)

    // A new approval comes next (after the poll), before the rotation goes on.
    const fresh = await fake.approve('photo', 'Nova', 'Chegou agora')
    await until(async () => (await show.getAttribute('data-id')) === fresh.id, 30_000, 'new approval shown')
    // The caption crossfades with the slide: wait until only the new one is left.
    await until(async () => (await page.locator('.slideshow__caption').count()) === 1, 5000, 'one caption')
    expect(await page.textContent('.slideshow__author')).toBe('Nova')
    expect(await page.textContent('.slideshow__message')).toBe('Chegou agora')
    await page.waitForTimeout(1300)
    await screenshot(page, 'slideshow-desktop')

    // Rejected while on screen: it leaves at the next poll, without waiting for its turn to end.
    await until(async () => (await show.getAttribute('data-id')) === fake.items[2]!.id, 30_000, 'a photo to reject')
    const rejected = fake.items[2]!.id
    fake.remove(rejected)
    const removedAt = Date.now()
    await until(async () => (await show.getAttribute('data-id')) !== rejected, 15_000, 'rejected item gone')
    expect(Date.now() - removedAt).toBeLessThan(12_500)

    // Wake lock: asked for at start, and again when the page comes back after the browser dropped it.
    const requests = await page.evaluate(() => (window as unknown as { wakeLockState: { requests: number } }).wakeLockState.requests)
    expect(requests).toBeGreaterThanOrEqual(1)
    await page.evaluate(async () => {
      const state = (window as unknown as { wakeLockState: { held: Array<{ release: () => Promise<void> }> } }).wakeLockState
      for (const sentinel of state.held) await sentinel.release()
      document.dispatchEvent(new Event('visibilitychange'))
    })
    await until(() => page.evaluate(n => (window as unknown as { wakeLockState: { requests: number } }).wakeLockState.requests > n, requests), 5000, 'wake lock again')
  })

  it('slideshow: keeps looping what it has when the network drops, and catches up when it returns', async () => {
    const fake = await gallery(4)
    const page = await open('desktop', fake, '/galeria?slideshow=1&segundos=2')
    const show = page.locator('[data-testid=slideshow]')
    // One full round, so every photo is in the browser's cache.
    const seen = new Set<string>()
    await until(async () => {
      seen.add((await show.getAttribute('data-id')) ?? '')
      return fake.items.every(item => item.kind !== 'photo' || seen.has(item.id))
    }, 40_000, 'one round')

    fake.offline = true
    await page.locator('.slideshow__offline').waitFor({ timeout: 15_000 })
    const offlineSeen = new Set<string>()
    const started = Date.now()
    while (Date.now() - started < 8000) {
      offlineSeen.add((await show.getAttribute('data-id')) ?? '')
      await page.waitForTimeout(200)
    }
    // Still changing slides while offline.
    expect(offlineSeen.size).toBeGreaterThanOrEqual(2)

    fake.offline = false
    const fresh = await fake.approve('photo', 'De volta', 'A internet voltou')
    await until(async () => (await show.getAttribute('data-id')) === fresh.id, 30_000, 'caught up')
    await until(async () => (await page.locator('.slideshow__offline').count()) === 0, 5000, 'online again')
  })

  it('slideshow: memory stays flat over many slides (DOM nodes, listeners, heap)', async () => {
    const fake = await gallery(12)
    const page = await open('desktop', fake, '/galeria?slideshow=1&segundos=2')
    const cdp = await context!.newCDPSession(page)
    const show = page.locator('[data-testid=slideshow]')
    let transitions = 0
    let last = ''
    const waitTransitions = async (count: number) => {
      await until(async () => {
        const id = (await show.getAttribute('data-id')) ?? ''
        if (id && id !== last) {
          transitions++
          last = id
        }
        return transitions >= count
      }, count * 5000, `${count} slides`)
    }
    const measure = async () => {
      await cdp.send('HeapProfiler.collectGarbage')
      const counters = await cdp.send('Memory.getDOMCounters')
      const heap = await cdp.send('Runtime.getHeapUsage')
      return { nodes: counters.nodes, listeners: counters.jsEventListeners, heap: heap.usedSize, slides: await page.locator('.slideshow-slide').count() }
    }
    await waitTransitions(4)
    const early = await measure()
    await waitTransitions(20)
    const late = await measure()
    expect(late.slides).toBeLessThanOrEqual(3)
    expect(late.nodes - early.nodes).toBeLessThan(60)
    expect(late.listeners - early.listeners).toBeLessThan(10)
    expect(late.heap - early.heap).toBeLessThan(3 * 1024 * 1024)
  })

  it('phone: the slideshow fits a small screen too', async () => {
    const fake = await gallery(3)
    const page = await open('phone', fake, '/galeria?slideshow=1')
    await until(async () => (await page.getAttribute('[data-testid=slideshow]', 'data-id')) === fake.items[0]!.id, 20_000, 'first slide')
    await page.waitForTimeout(1500)
    await screenshot(page, 'slideshow-phone')
  })
})
