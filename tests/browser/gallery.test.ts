import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api, login } from '../support/http'
import { decodeQr } from '../support/qr'
import { useTestServer } from '../support/suite/test-server'
import { startServer, type TestServer } from '../support/server'
import { PHONE, screenshot, skipSlideHold, until } from './support/browser'
import { expectAccessible } from './support/axe'
import { galleryItems, guestUpload, seedGallery, type GuestUpload } from '../support/guests'
import { useBrowser } from './support/fixture'

interface Box { x: number, y: number, width: number, height: number }

/** Whether `inner` lies inside `outer` (half a pixel of rounding allowed). */
const within = (inner: Box, outer: Box) => inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5
  && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/**
 * /galeria and the slideshow against the real server: every item is a real upload sent through
 * the guest API (photos derived by the server, videos with the poster frame /enviar sends),
 * listed by the real GET /api/gallery, moderated through the real admin API, with the real QR
 * code in the corner. The only stand-in is the Wake Lock API, which headless Chromium refuses.
 */
describe('gallery and slideshow (real server, real uploads)', () => {
  const sharedServer = useTestServer({ admin: true })
  /** One event with 30 uploads, for the tests that only look. */
  let shared: Event
  const pages = useBrowser({ server: sharedServer })
  let context: BrowserContext | undefined
  /** Events a single test changes (moderation, a server stopped) get their own server. */
  const ownServers: TestServer[] = []

  interface Event {
    server: TestServer
    cookie: string
    /** Newest first, the gallery's order. */
    items: GuestUpload[]
  }

  /** The couple's names, post-moderation, and `count` uploads on `server`. */
  async function eventOn(server: TestServer, cookie: string, count: number): Promise<Event> {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', eventDate: '2026-12-12', moderation: 'post' }, cookie })
    expect(patch.status).toBe(200)
    return { server, cookie, items: await seedGallery(server.url, cookie, count) }
  }

  async function ownEvent(count: number): Promise<Event> {
    const server = await startServer()
    ownServers.push(server)
    return eventOn(server, await login(server.url), count)
  }

  beforeAll(async () => {
    shared = await eventOn(sharedServer, sharedServer.cookie, 30)
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
    for (const server of ownServers.splice(0)) await server.stop()
  })

  async function open(kind: 'phone' | 'desktop', event: Event, path = '/galeria'): Promise<Page> {
    context = await pages.context(kind, { baseURL: event.server.url })
    const page = await context.newPage()
    await page.goto(path)
    return page
  }

  /** The admin's moderation calls, as the dashboard makes them. */
  async function moderate(event: Event, id: string, action: 'approve' | 'reject' | 'delete') {
    const response = action === 'delete'
      ? await api(event.server.url, `/api/admin/uploads/${id}`, { method: 'DELETE', cookie: event.cookie })
      : await api(event.server.url, `/api/admin/uploads/${id}/${action}`, { method: 'POST', cookie: event.cookie })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
  }

  async function setModeration(event: Event, moderation: 'pre' | 'post') {
    const response = await api(event.server.url, '/api/admin/event', { method: 'PATCH', json: { moderation }, cookie: event.cookie })
    expect(response.status).toBe(200)
  }

  const tiles = (page: Page) => page.locator('[data-testid=gallery-item]')
  const tileIds = (page: Page) => tiles(page).evaluateAll(els => els.map(el => el.getAttribute('data-id')))
  const columns = (page: Page) => page.locator('.gallery__grid').evaluate(el => getComputedStyle(el).gridTemplateColumns.split(' ').length)
  const onScreen = (page: Page) => page.getAttribute('[data-testid=slideshow]', 'data-id')
  /** Resolves once the page has fetched GET /api/gallery again (a poll). */
  const nextGalleryAnswer = (page: Page) => page.waitForResponse(response => new URL(response.url()).pathname === '/api/gallery', { timeout: 20_000 })

  it('phone: a two-column grid of lazy tiles, video tiles with a frame and a play mark, load more to the end', async () => {
    const { items } = shared
    const page = await open('phone', shared)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    expect(await tileIds(page)).toEqual(items.slice(0, 24).map(item => item.id))
    expect(await columns(page)).toBe(2)
    const kinds = await tiles(page).evaluateAll(els => els.map(el => el.getAttribute('data-kind')))
    expect(kinds).toEqual(items.slice(0, 24).map(item => item.kind))
    // Thumbnails are the small images the server derived (photos) or the poster frame sent with
    // the video, loaded lazily.
    const images = await tiles(page).locator('img').evaluateAll(els => els.map(el => [el.getAttribute('loading'), el.getAttribute('src')]))
    expect(images.every(([loading]) => loading === 'lazy')).toBe(true)
    expect(images.every(([, src]) => /-(thumb\.webp|poster\.jpg)$/.test(src!))).toBe(true)
    const listed = new Map((await galleryItems(shared.server.url)).map(item => [item.id, item]))
    const withPoster = items.slice(0, 24).filter(item => item.kind === 'video' && listed.get(item.id)!.thumbUrl)
    expect(withPoster.length).toBe(2)
    for (const video of withPoster) {
      expect(await page.getAttribute(`[data-testid=gallery-item][data-id="${video.id}"] img`, 'src')).toMatch(/-poster\.jpg$/)
    }
    // Videos: a play mark on every one; without a poster, a drawn placeholder (the tile never
    // fetches the video: see the test of that below).
    const noPoster = items.slice(0, 24).find(item => item.kind === 'video' && !listed.get(item.id)!.thumbUrl)!
    expect(noPoster).toBeDefined()
    const tile = page.locator(`[data-testid=gallery-item][data-id="${noPoster.id}"]`)
    await tile.scrollIntoViewIfNeeded()
    await tile.locator('[data-testid=gallery-video-placeholder]').waitFor()
    expect(await tile.locator('video, img').count()).toBe(0)
    expect(await page.locator('[data-testid=gallery-item][data-kind=video] .gallery-tile__play').count()).toBe(await page.locator('[data-testid=gallery-item][data-kind=video]').count())

    await page.evaluate(() => window.scrollTo(0, 0))
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=gallery-item] img')).slice(0, 6).every(img => (img as HTMLImageElement).complete))
    await screenshot(page, 'galeria-phone')
    await expectAccessible(page, '/galeria on a phone')

    await page.click('[data-testid=load-more]')
    await until(async () => (await tiles(page).count()) === 30, 15_000, 'second page')
    expect(await tileIds(page)).toEqual(items.map(item => item.id))
    // The last page: no more button.
    await until(async () => (await page.locator('[data-testid=load-more]:not([disabled])').count()) === 0, 5000, 'no load more')
  })

  it('phone: the viewer shows author and message, follows swipes and arrow keys, closes with Escape', async () => {
    const [first, second, third] = shared.items
    const page = await open('phone', shared)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    const viewer = page.locator('[data-testid=viewer]')
    // The server-rendered tiles are there before the page is hydrated, and a tap before it does
    // nothing (a guest taps again): tap until the viewer opens, within the same 30 s.
    await until(async () => {
      if (await viewer.isVisible()) return true
      await tiles(page).nth(1).click()
      return viewer.waitFor({ timeout: 3000 }).then(() => true, () => false)
    }, 30_000, 'the viewer')
    expect(await viewer.getAttribute('data-id')).toBe(second!.id)
    expect(second!.author).toBe('Convidado 29')
    expect(second!.message).toBe('Mensagem número 29 para os noivos')
    expect(await page.textContent('[data-testid=viewer-author]')).toBe(second!.author)
    expect(await page.textContent('[data-testid=viewer-message]')).toBe(second!.message)
    await page.waitForFunction(() => (document.querySelector('[data-testid=viewer] img') as HTMLImageElement | null)?.complete)
    // The viewer shows the display-size image the server derived, not the guest's original.
    expect(await page.getAttribute('[data-testid=viewer] img', 'src')).toMatch(/-display\.jpg$/)
    await screenshot(page, 'viewer-phone')
    await expectAccessible(page, 'the viewer open, on a phone')

    await page.keyboard.press('ArrowRight')
    await until(async () => (await viewer.getAttribute('data-id')) === third!.id, 5000, 'arrow right')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await until(async () => (await viewer.getAttribute('data-id')) === first!.id, 5000, 'arrow left')
    // The newest was sent without a name: the viewer says 'Convidado' instead of leaving a blank.
    expect(first!.author).toBe('')
    expect(await page.textContent('[data-testid=viewer-author]')).toBe('Convidado')

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

  it('phone: a video without a poster frame shows a placeholder tile and the page never fetches the video for it', async () => {
    const listed = await galleryItems(shared.server.url)
    const posterless = listed.filter(item => item.kind === 'video' && !item.thumbUrl)
    // The seed: every fourteenth upload is a video sent without its poster frame (two of 30).
    expect(posterless.length).toBe(2)
    context = await pages.context('phone', { baseURL: shared.server.url })
    const page = await context.newPage()
    // Every request of the page from its first byte, to see whether a video file was asked for.
    const requested: string[] = []
    page.on('request', request => requested.push(new URL(request.url()).pathname))
    await page.goto('/galeria')
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    // The server-rendered tiles show before the page hydrates, when a click does nothing yet.
    await until(async () => {
      if ((await tiles(page).count()) < 30) await page.click('[data-testid=load-more]:not([disabled])', { timeout: 1000 }).catch(() => {})
      return (await tiles(page).count()) === 30
    }, 15_000, 'second page')
    for (const item of posterless) {
      const tile = page.locator(`[data-testid=gallery-item][data-id="${item.id}"]`)
      await tile.scrollIntoViewIfNeeded()
      await expect(tile.locator('[data-testid=gallery-video-placeholder]').textContent()).resolves.toContain('Vídeo')
      expect(await tile.locator('.gallery-tile__play').count()).toBe(1)
    }
    await page.waitForTimeout(1500)
    await screenshot(page, 'galeria-phone-video-placeholder')
    const videoPaths = listed.filter(item => item.kind === 'video').map(item => new URL(item.url).pathname)
    expect(requested.filter(path => videoPaths.includes(path))).toEqual([])
    // The posters that exist were fetched: the watch itself works.
    const posterPaths = listed.filter(item => item.kind === 'video' && item.thumbUrl).map(item => new URL(item.thumbUrl!).pathname)
    expect(posterPaths.length).toBe(2)
    for (const path of posterPaths) expect(requested).toContain(path)
  })

  it('phone: the viewer opens a video muted and playing, with a sound button that turns the sound on', async () => {
    const listed = await galleryItems(shared.server.url)
    const video = listed.find(item => item.kind === 'video' && item.thumbUrl)!
    const page = await open('phone', shared)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    const tile = page.locator(`[data-testid=gallery-item][data-id="${video.id}"]`)
    await tile.scrollIntoViewIfNeeded()
    await tile.click()
    const player = page.locator('[data-testid=viewer] video')
    await player.waitFor()
    expect(await player.evaluate(el => (el as HTMLVideoElement).muted)).toBe(true)
    expect(await player.getAttribute('src')).toBe(video.url)
    // The real clip plays (muted autoplay is allowed): time moves on.
    await page.waitForFunction(() => ((document.querySelector('[data-testid=viewer] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, undefined, { timeout: 15_000 })
    const sound = page.locator('[data-testid=viewer-sound]')
    expect(await sound.getAttribute('aria-label')).toBe('Ativar som')
    expect(await sound.getAttribute('aria-pressed')).toBe('false')
    expect((await sound.textContent())!.trim()).toBe('Ativar som')
    const box = (await sound.boundingBox())!
    expect(box.width).toBeGreaterThanOrEqual(44)
    expect(box.height).toBeGreaterThanOrEqual(44)
    // Not hidden under the close button, and on screen.
    expect(overlap(box, (await page.locator('[aria-label="Fechar"]').boundingBox())!)).toBe(false)
    expect(within(box, { x: 0, y: 0, ...PHONE })).toBe(true)
    await screenshot(page, 'viewer-phone-video-muted')

    await sound.click()
    await until(async () => (await player.evaluate(el => (el as HTMLVideoElement).muted)) === false, 5000, 'unmuted')
    expect(await sound.getAttribute('aria-label')).toBe('Tirar som')
    expect(await sound.getAttribute('aria-pressed')).toBe('true')
    expect(await player.evaluate(el => (el as HTMLVideoElement).volume)).toBeGreaterThan(0)
    // And back.
    await sound.click()
    await until(async () => (await player.evaluate(el => (el as HTMLVideoElement).muted)) === true, 5000, 'muted again')
  })

  it('desktop: more columns, and the viewer with arrows', async () => {
    const page = await open('desktop', shared)
    await until(async () => (await tiles(page).count()) === 24, 15_000, 'first page')
    expect(await columns(page)).toBe(6)
    await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=gallery-item] img')).every(img => (img as HTMLImageElement).complete))
    await screenshot(page, 'galeria-desktop')
    await expectAccessible(page, '/galeria, desktop')
    await tiles(page).first().focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=viewer]').waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid=viewer] img') as HTMLImageElement | null)?.complete)
    await screenshot(page, 'viewer-desktop')
    await expectAccessible(page, 'the viewer open, desktop')
    await page.click('[aria-label="Próxima"]')
    await until(async () => (await page.getAttribute('[data-testid=viewer]', 'data-id')) === shared.items[1]!.id, 5000, 'next button')
  })

  it('an upload approved by the admin appears without a reload; rejected and deleted ones leave (page 1 polled)', async () => {
    const event = await ownEvent(10)
    const page = await open('phone', event)
    await until(async () => (await tiles(page).count()) === 10, 15_000, 'items')
    expect(await page.locator('[data-testid=load-more]').count()).toBe(0)

    // Under pre-moderation a new upload waits for the admin: the gallery does not show it.
    await setModeration(event, 'pre')
    const fresh = await guestUpload(event.server.url, event.cookie, 11, { author: 'Recém-chegada', message: 'Oi!' })
    expect(fresh.status).toBe('pending')
    await nextGalleryAnswer(page)
    await page.waitForTimeout(300)
    expect(await tileIds(page)).not.toContain(fresh.id)

    await moderate(event, fresh.id, 'approve')
    const rejected = event.items[3]!
    const deleted = event.items[5]!
    await moderate(event, rejected.id, 'reject')
    await moderate(event, deleted.id, 'delete')
    await until(async () => (await tileIds(page))[0] === fresh.id, 15_000, 'approved item on top')
    const shown = await tileIds(page)
    expect(shown).not.toContain(rejected.id)
    expect(shown).not.toContain(deleted.id)
    expect(shown).toEqual([fresh.id, ...event.items.filter(item => item !== rejected && item !== deleted).map(item => item.id)])
    await tiles(page).first().click()
    expect(await page.textContent('[data-testid=viewer-author]')).toBe('Recém-chegada')
    expect(await page.textContent('[data-testid=viewer-message]')).toBe('Oi!')
  })

  it('slideshow: newest first, words over it, QR to /enviar, an approval next, rejected and deleted gone at once, wake lock, no cursor', async () => {
    const event = await ownEvent(6)
    const { items } = event
    context = await pages.context('desktop', { baseURL: event.server.url })
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
              released: false, type: 'screen',
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
    // The newest was sent without words: no empty caption box over it. Its captions are counted in
    // the same page task that sees it on screen: at two seconds a photo, the next one (which has
    // words) may well be up by the time the QR code below is decoded on a busy machine.
    expect([items[0]!.author, items[0]!.message]).toEqual(['', ''])
    const newest = await page.waitForFunction((id) => {
      const onScreenNow = document.querySelector<HTMLElement>('[data-testid=slideshow]')?.dataset.id
      return onScreenNow === id && { captions: document.querySelectorAll('.slideshow__caption').length }
    }, items[0]!.id, { timeout: 20_000 })
    expect(await newest.jsonValue()).toEqual({ captions: 0 })
    expect(await show.evaluate(el => getComputedStyle(el).cursor)).toBe('none')
    // The corner's QR code is the server's own, and a phone reading it lands on /enviar.
    expect(await page.getAttribute('.slideshow__qr img', 'src')).toBe('/api/qrcode?format=svg')
    await page.waitForFunction(() => (document.querySelector('.slideshow__qr img') as HTMLImageElement).naturalWidth > 0)
    expect(await decodeQr(await page.locator('.slideshow__qr img').screenshot())).toBe(`${event.server.url}/enviar`)

    // It moves on by itself, in the gallery's order, with the guest's words over the next one.
    await until(async () => (await onScreen(page)) === items[1]!.id, 15_000, 'second slide')
    expect(await page.locator('.slideshow-slide').count()).toBeLessThanOrEqual(3)
    await until(async () => (await page.locator('.slideshow__caption').count()) === 1, 5000, 'one caption')
    expect(await page.textContent('.slideshow__author')).toBe('Convidado 5')
    expect(await page.textContent('.slideshow__message')).toBe('Mensagem número 5 para os noivos')

    // Under pre-moderation a new upload stays off the screen until the admin approves it; then
    // it comes next (after the poll), before the rotation goes on.
    await setModeration(event, 'pre')
    const fresh = await guestUpload(event.server.url, event.cookie, 7, { author: 'Nova', message: 'Chegou agora' })
    expect(fresh.status).toBe('pending')
    await nextGalleryAnswer(page)
    expect(await onScreen(page)).not.toBe(fresh.id)
    await moderate(event, fresh.id, 'approve')
    await until(async () => (await onScreen(page)) === fresh.id, 30_000, 'approved item shown')
    // The caption crossfades with the slide: wait until only the new one is left.
    await until(async () => (await page.locator('.slideshow__caption').count()) === 1, 5000, 'one caption')
    expect(await page.textContent('.slideshow__author')).toBe('Nova')
    expect(await page.textContent('.slideshow__message')).toBe('Chegou agora')
    await page.waitForTimeout(1300)
    await screenshot(page, 'slideshow-desktop')
    await expectAccessible(page, 'the slideshow, desktop')

    // Rejected while on screen: it leaves at the next poll, without waiting for its turn to end.
    await until(async () => (await onScreen(page)) === items[2]!.id, 30_000, 'a photo to reject')
    await moderate(event, items[2]!.id, 'reject')
    const rejectedAt = Date.now()
    await until(async () => (await onScreen(page)) !== items[2]!.id, 15_000, 'rejected item gone')
    expect(Date.now() - rejectedAt).toBeLessThan(12_500)
    // Deleted while on screen: the same.
    await until(async () => (await onScreen(page)) === items[3]!.id, 30_000, 'a photo to delete')
    await moderate(event, items[3]!.id, 'delete')
    const deletedAt = Date.now()
    await until(async () => (await onScreen(page)) !== items[3]!.id, 15_000, 'deleted item gone')
    expect(Date.now() - deletedAt).toBeLessThan(12_500)
    // Neither comes back in the rotation.
    const later = new Set<string>()
    const watchFrom = Date.now()
    while (Date.now() - watchFrom < 12_000) {
      later.add((await onScreen(page)) ?? '')
      await page.waitForTimeout(200)
    }
    expect(later.has(items[2]!.id) || later.has(items[3]!.id)).toBe(false)

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

  it('slideshow: keeps looping what it has while the server cannot be reached, and catches up when it returns', async () => {
    const event = await ownEvent(4)
    // Without the "send your photos" card (convite=0): its 8 s would hold one id on screen through
    // the offline window this test watches for changing slides.
    const page = await open('desktop', event, '/galeria?slideshow=1&segundos=2&convite=0')
    // One full round, so every photo is in the browser's cache.
    const seen = new Set<string>()
    await until(async () => {
      seen.add((await onScreen(page)) ?? '')
      return event.items.every(item => seen.has(item.id))
    }, 40_000, 'one round')

    // The venue's internet drops while its Wi-Fi stays up: the browser still believes it is
    // online, and every request fails. Here the server really goes away.
    const { port, dir } = event.server
    await event.server.stop()
    await page.locator('.slideshow__offline').waitFor({ timeout: 15_000 })
    const offlineSeen = new Set<string>()
    const started = Date.now()
    while (Date.now() - started < 8000) {
      offlineSeen.add((await onScreen(page)) ?? '')
      await page.waitForTimeout(200)
    }
    // Still changing slides while the server is gone.
    expect(offlineSeen.size).toBeGreaterThanOrEqual(2)

    // Back, with the same database and media, on the same address.
    event.server = await startServer({ PORT: String(port) }, dir)
    ownServers.push(event.server)
    const fresh = await guestUpload(event.server.url, event.cookie, 5, { author: 'De volta', message: 'A internet voltou' })
    await until(async () => (await onScreen(page)) === fresh.id, 30_000, 'caught up')
    await until(async () => (await page.locator('.slideshow__offline').count()) === 0, 5000, 'online again')
  })

  it('slideshow: memory stays flat over many slides (DOM nodes, listeners, heap)', async () => {
    // On the page's own clock, each photo's two seconds pass as soon as it is shown whole.
    context = await pages.context('desktop', { baseURL: shared.server.url })
    const page = await context.newPage()
    await page.clock.install()
    await page.goto('/galeria?slideshow=1&segundos=2')
    const cdp = await context.newCDPSession(page)
    let transitions = 0
    let last = ''
    const waitTransitions = async (count: number) => {
      await until(async () => {
        const id = (await onScreen(page)) ?? ''
        if (id && id !== last) {
          transitions++
          last = id
        }
        if (transitions < count) await skipSlideHold(page, 2000)
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
    // On the page's own clock, a minute a photo: the slide measured stays while axe reads the
    // page on a busy machine, and the next comes when the test moves the clock on.
    context = await pages.context('phone', { baseURL: shared.server.url })
    const page = await context.newPage()
    await page.clock.install()
    await page.goto('/galeria?slideshow=1&segundos=60')
    await until(async () => (await onScreen(page)) === shared.items[0]!.id, 20_000, 'first slide')
    await page.waitForTimeout(1500)
    await screenshot(page, 'slideshow-phone')
    await expectAccessible(page, 'the slideshow on a phone')
    const screen = { x: 0, y: 0, width: PHONE.width, height: PHONE.height }

    // The photo is shown whole and as large as the screen allows: its picture (object-fit:
    // contain) touches two opposite edges and crosses none.
    const shown = await until(() => page.evaluate(() => {
      const pictures = [...document.querySelectorAll<HTMLImageElement>('[data-testid=slideshow] .slideshow-slide--ready img.slideshow-slide__media')]
      for (const img of pictures.reverse()) {
        const box = img.getBoundingClientRect()
        if (!img.naturalWidth || !box.width) continue
        const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight)
        const width = img.naturalWidth * scale
        const height = img.naturalHeight * scale
        return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height }
      }
      return null
    }), 20_000, 'a photo on screen')
    expect(within(shown, screen), JSON.stringify(shown)).toBe(true)
    expect(Math.round(shown.width) === screen.width || Math.round(shown.height) === screen.height, JSON.stringify(shown)).toBe(true)

    // The QR code sits inside the screen, in a corner, small enough to leave the photo visible
    // and large enough for a phone across the room to read it.
    const qr = (await page.locator('.slideshow__qr').boundingBox())!
    const code = (await page.locator('.slideshow__qr img').boundingBox())!
    expect(within(qr, screen), JSON.stringify(qr)).toBe(true)
    expect(qr.x + qr.width).toBeGreaterThan(screen.width / 2)
    expect(qr.y + qr.height).toBeGreaterThan(screen.height / 2)
    expect(qr.width * qr.height).toBeLessThan(screen.width * screen.height * 0.1)
    expect(code.width).toBeGreaterThanOrEqual(64)
    expect(await decodeQr(await page.locator('.slideshow__qr img').screenshot())).toBe(`${shared.server.url}/enviar`)

    // The next slide has words: author and message inside the screen, uncut, clear of the QR code.
    await until(() => skipSlideHold(page, 60_000), 20_000, 'the first slide shown whole')
    await until(async () => (await onScreen(page)) === shared.items[1]!.id, 20_000, 'a slide with words')
    await until(async () => (await page.locator('.slideshow__caption').count()) === 1, 5000, 'one caption')
    await page.waitForTimeout(1300)
    await screenshot(page, 'slideshow-phone-caption')
    // The caption of that slide (the one before may still be fading out).
    const caption = page.locator('.slideshow__caption', { hasText: 'Convidado 29' })
    for (const selector of ['.slideshow__author', '.slideshow__message']) {
      const text = caption.locator(selector)
      const box = (await text.boundingBox())!
      expect(within(box, screen), `${selector} ${JSON.stringify(box)}`).toBe(true)
      expect(overlap(box, qr), `${selector} ${JSON.stringify(box)} under the QR code ${JSON.stringify(qr)}`).toBe(false)
      expect(await text.evaluate(el => el.scrollWidth <= el.clientWidth), `${selector} cut sideways`).toBe(true)
    }
    expect(await caption.locator('.slideshow__author').textContent()).toBe('Convidado 29')
  })
})
