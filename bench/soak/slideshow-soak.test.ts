import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../tests/support/http'
import { useTestServer } from '../../tests/support/suite/test-server'
import { guestUpload } from '../../tests/support/guests'
import { waitForDerived } from '../../tests/support/seed'
import { launchBrowser, screenshot } from '../../tests/browser/support/browser'

const HOUR = 3_600_000
/** The night: eight hours of the venue screen's own clock. */
const NIGHT_MS = 8 * HOUR
/** Measurements start once the screen has settled into its loop (pool full, code warm). */
const WARM_UP_MS = HOUR
const PHOTO_SECONDS = 12
/**
 * A 720p projector: memory and timers do not depend on the screen's size, and a quarter of 1080p's
 * pixels to paint (the blurred backdrops above all, in software here) keeps the test's wall time short.
 */
const SCREEN = { width: 1280, height: 720 }
/** The venue's Wi-Fi drops this often, for this long. */
const CUT_EVERY_MS = 45 * 60_000
const CUT_FOR_MS = 5 * 60_000
/** Someone switches the TV's input (or the tablet's app) away and back this often. */
const HIDE_EVERY_MS = HOUR
const HIDDEN_FOR_MS = 60_000
const PHOTOS = 16
/** Page time let run before each measurement (see `sample`). */
const QUIET_MS = 2000

/** What the page reports of itself at a step boundary (see the init script). */
interface Probe {
  id: string | null
  settled: boolean
  inviting: boolean
  offlineNotice: boolean
  timers: number
  polls: number
  /** Polls the network did not answer: failed, or answered by the service worker's kept copy. */
  pollsFailed: number
  wakeRequests: number
  wakeHeld: number
  now: number
}

interface Sample { atHours: number, heapBytes: number, nodes: number, listeners: number, liveElements: number, timers: number }

/**
 * The venue screen left alone all night, compressed: Playwright's fake clock (`page.clock`) drives
 * every timer of the page through eight hours while the images, the polls against the real
 * server, Vue's rendering and the garbage collector run for real. Thousands of slides, a poll
 * every ten seconds, the network cut (Chromium's own offline emulation) and restored every 45
 * minutes, and the page hidden and shown again every hour. JS heap (after a forced collection),
 * DOM nodes and pending timers must stay flat, and the wake lock must be taken again each time
 * the page comes back.
 *
 * Two things are played by the test, because headless Chromium cannot do them itself: the page
 * being hidden (there is no CDP call that hides a page; the test sets `document.visibilityState`
 * and fires `visibilitychange`) and the browser dropping the wake lock when it is (the test
 * releases the real sentinel, as Chromium does on hide). The Wake Lock API itself is real here
 * (granted on 127.0.0.1); only if a Chromium lacks it does the test put a stand-in in its place,
 * and the figures say which one ran. Photos only: a video plays in real time, which no fake clock
 * can compress (the memory of video slides is checked by gallery.test.ts).
 */
describe('the slideshow runs all night', () => {
  const server = useTestServer({ admin: true })
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', moderation: 'post' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
    browser = await launchBrowser()
    const ids: string[] = []
    for (let n = 1; n <= PHOTOS; n++) {
      ids.push((await guestUpload(server.url, server.cookie, n, { author: n % 2 ? `Convidado ${n}` : '', message: n % 3 ? `Mensagem ${n}` : '', derived: false })).id)
    }
    await Promise.all(ids.map(id => waitForDerived(server.url, server.cookie, id)))
  })
  afterAll(async () => {
    await context?.close()
    await browser?.close()
  })

  /**
   * Heap after a forced collection, DOM counters, and the page's own count of pending timers, taken
   * at a quiet point: two seconds of page time after a step, so that the crossfade's clean-up and
   * Vue's leave transitions (whose fallback timers hold the leaving elements) have run, and what
   * they let go of can be collected. Otherwise the counters catch a leaving slide or card still
   * referenced, and wobble by a hundred nodes from one sample to the next.
   */
  async function sample(page: Page, cdp: CDPSession, atMs: number): Promise<Sample> {
    await page.clock.runFor(QUIET_MS)
    await page.evaluate(() => (window as any).soak.settled())
    await cdp.send('HeapProfiler.collectGarbage')
    await cdp.send('HeapProfiler.collectGarbage')
    const { metrics } = await cdp.send('Performance.getMetrics')
    const metric = (name: string) => metrics.find(entry => entry.name === name)?.value ?? Number.NaN
    const counters = await cdp.send('Memory.getDOMCounters')
    const inPage = await page.evaluate(() => ({ liveElements: document.getElementsByTagName('*').length, timers: (window as any).soak.timers.size as number }))
    return { atHours: +(atMs / HOUR).toFixed(2), heapBytes: metric('JSHeapUsedSize'), nodes: counters.nodes, listeners: counters.jsEventListeners, ...inPage }
  }

  it('eight hours of slides, polls, network cuts and hidden spells: heap, DOM and timers flat, wake lock taken again', async () => {
    const wallStart = Date.now()
    context = await browser.newContext({ baseURL: server.url, viewport: SCREEN, locale: 'pt-BR' })
    const page = await context.newPage()
    const start = new Date('2026-12-12T20:00:00-03:00').getTime()
    // The fake clock first: the accounting below wraps its timers, so it counts what the page asks for.
    await page.clock.install({ time: start })
    await page.addInitScript(() => {
      const timers = new Set<unknown>()
      let fired = 0
      const realSetTimeout = window.setTimeout
      const realClearTimeout = window.clearTimeout
      const realSetInterval = window.setInterval
      const realClearInterval = window.clearInterval
      window.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const id: unknown = realSetTimeout(() => {
          timers.delete(id)
          fired++
          if (typeof handler === 'function') handler(...args)
        }, ms)
        timers.add(id)
        return id
      }) as typeof window.setTimeout
      window.clearTimeout = ((id?: number) => {
        timers.delete(id)
        realClearTimeout(id)
      }) as typeof window.clearTimeout
      window.setInterval = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const id = realSetInterval(handler, ms, ...args)
        timers.add(id)
        return id
      }) as typeof window.setInterval
      window.clearInterval = ((id?: number) => {
        timers.delete(id)
        realClearInterval(id)
      }) as typeof window.clearInterval

      // Polls and requests in flight, counted where the page makes them.
      const counts = { polls: 0, pollsFailed: 0, inflight: 0 }
      /** Called whenever a request ends: `settled()` below waits on them. */
      const waiters = new Set<() => void>()
      const realFetch = window.fetch.bind(window)
      window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
        const isPoll = new URL(url, location.href).pathname === '/api/gallery'
        if (isPoll) counts.polls++
        counts.inflight++
        try {
          const response = await realFetch(input, init)
          // Offline, the service worker answers a poll with its kept copy (marked so) instead of failing it.
          if (isPoll && response.headers.has('x-offline-copy')) counts.pollsFailed++
          return response
        }
        catch (error) {
          if (isPoll) counts.pollsFailed++
          throw error
        }
        finally {
          counts.inflight--
          for (const waiter of [...waiters]) waiter()
        }
      }) as typeof window.fetch

      // The page's visibility, played by the test (see above).
      let visibility: DocumentVisibilityState = 'visible'
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => visibility === 'hidden' })

      // The real Wake Lock API, watched; a stand-in only where this Chromium has none.
      const wake = { requests: 0, sentinels: [] as WakeLockSentinel[], real: 'wakeLock' in navigator }
      if (!wake.real) {
        Object.defineProperty(navigator, 'wakeLock', {
          value: {
            request: async () => {
              const sentinel = Object.assign(new EventTarget(), {
                released: false, type: 'screen',
                release: async () => {
                  if (sentinel.released) return
                  sentinel.released = true
                  sentinel.dispatchEvent(new Event('release'))
                },
              })
              return sentinel
            },
          },
        })
      }
      const request = navigator.wakeLock.request.bind(navigator.wakeLock)
      navigator.wakeLock.request = async (type?: WakeLockType) => {
        wake.requests++
        const sentinel = await request(type)
        wake.sentinels.push(sentinel)
        return sentinel
      }

      Object.assign(window, {
        soak: {
          timers,
          get fired() {
            return fired
          },
          counts,
          wake,
          async hide() {
            visibility = 'hidden'
            // What Chromium does to a hidden page's screen lock.
            for (const sentinel of wake.sentinels) await sentinel.release()
            document.dispatchEvent(new Event('visibilitychange'))
          },
          show() {
            visibility = 'visible'
            document.dispatchEvent(new Event('visibilitychange'))
          },
          /** Resolves with the probe once nothing loads under the slide on screen and no request is on its way. */
          settled() {
            const soak = (window as any).soak
            return new Promise((resolve) => {
              const check = () => {
                const state = soak.probe()
                if (!state.settled) return
                observer.disconnect()
                waiters.delete(check)
                resolve(state)
              }
              const observer = new MutationObserver(check)
              observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'data-id'] })
              waiters.add(check)
              check()
            })
          },
          probe() {
            const show = document.querySelector('[data-testid=slideshow]')
            return {
              id: show?.getAttribute('data-id') ?? null,
              settled: !!show && !show.querySelector('.slideshow-slide:not(.slideshow-slide--ready)') && counts.inflight === 0,
              inviting: !!document.querySelector('[data-testid=slideshow-invite]'),
              offlineNotice: !!document.querySelector('.slideshow__offline'),
              timers: timers.size,
              polls: counts.polls,
              pollsFailed: counts.pollsFailed,
              wakeRequests: wake.requests,
              wakeHeld: wake.sentinels.filter(sentinel => !sentinel.released).length,
              now: Date.now(),
            }
          },
        },
      })
    })
    // Paused from the start: the page's time moves only when the test says (a loaded machine
    // loading the page slowly changes nothing).
    await page.clock.pauseAt(start + 1000)
    await page.goto(`/galeria?slideshow=1&segundos=${PHOTO_SECONDS}`)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')

    const probe = (): Promise<Probe> => page.evaluate(() => (window as any).soak.probe())
    /**
     * Real time for what the fake clock does not drive: an image loading, a poll's answer. Waited
     * for in the page, by events (one round trip a step); a load that never ends is left to the
     * slideshow's own 20 s limit, which the next steps' fake time reaches.
     */
    async function settle(): Promise<Probe> {
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<'late'>(resolve => (timer = setTimeout(resolve, 5000, 'late')))
      const settled = await Promise.race([page.evaluate(() => (window as any).soak.settled() as Promise<Probe>), late])
      clearTimeout(timer)
      if (settled !== 'late') return settled
      stalls++
      return probe()
    }
    let stalls = 0

    // The first photo, before the night starts.
    for (let tries = 0; !(await probe()).id; tries++) {
      expect(tries, 'the first slide').toBeLessThan(200)
      await page.clock.runFor(500)
      await settle()
    }
    const real = await page.evaluate(() => (window as any).soak.wake.real as boolean)

    let slides = 1
    let invites = 0
    let lastId = (await probe()).id
    let wasInviting = false
    let maxTimers = 0
    let elapsed = 0
    let offline = false
    let cuts = 0
    let cutsNoticed = 0
    let noticedThisCut = false
    let recovered = 0
    let hides = 0
    let nextHide = HIDE_EVERY_MS
    let hiddenSince: number | null = null
    let wakeBeforeHide = 0
    /** Step boundaries, page shown, at which no screen lock was held. */
    const lockGaps: string[] = []
    let nextCut = CUT_EVERY_MS
    const samples: Sample[] = []
    let nextSample = WARM_UP_MS

    while (elapsed < NIGHT_MS) {
      // One photo's time a step: each step shows (at most) one new slide, loaded in real time.
      await page.clock.runFor(PHOTO_SECONDS * 1000)
      elapsed += PHOTO_SECONDS * 1000
      const state = await settle()
      maxTimers = Math.max(maxTimers, state.timers)
      if (state.id && state.id !== lastId) {
        slides++
        lastId = state.id
      }
      if (state.inviting && !wasInviting) invites++
      wasInviting = state.inviting
      if (offline && state.offlineNotice) noticedThisCut = true
      if (hiddenSince === null && state.wakeHeld !== 1) lockGaps.push(`${(elapsed / HOUR).toFixed(2)} h: ${state.wakeHeld} held${offline ? ', offline' : ''}`)

      if (!offline && elapsed >= nextCut) {
        await context.setOffline(true)
        offline = true
        noticedThisCut = false
        cuts++
      }
      else if (offline && elapsed >= nextCut + CUT_FOR_MS) {
        await context.setOffline(false)
        offline = false
        nextCut += CUT_EVERY_MS
        if (noticedThisCut) cutsNoticed++
      }
      else if (!offline && cuts > recovered && !state.offlineNotice) {
        // Back online: the notice went away by itself at the next poll.
        recovered++
      }

      // (Never hidden at the very end: the last figures are taken with the page shown.)
      if (hiddenSince === null && elapsed >= nextHide && elapsed + HIDDEN_FOR_MS < NIGHT_MS) {
        wakeBeforeHide = state.wakeRequests
        await page.evaluate(() => (window as any).soak.hide())
        expect((await probe()).wakeHeld, 'the lock is dropped while hidden').toBe(0)
        hiddenSince = elapsed
      }
      else if (hiddenSince !== null && elapsed - hiddenSince >= HIDDEN_FOR_MS) {
        await page.evaluate(() => (window as any).soak.show())
        for (let tries = 0; (await probe()).wakeRequests === wakeBeforeHide; tries++) {
          expect(tries, 'the wake lock asked for again').toBeLessThan(500)
          await new Promise(resolve => setTimeout(resolve, 5))
        }
        const after = await settle()
        expect(after.wakeRequests, 'asked for once, not once per listener').toBe(wakeBeforeHide + 1)
        expect(after.wakeHeld, 'one lock held').toBe(1)
        hiddenSince = null
        hides++
        nextHide += HIDE_EVERY_MS
      }

      if (elapsed >= nextSample) {
        samples.push(await sample(page, cdp, elapsed))
        elapsed += QUIET_MS
        nextSample += HOUR
      }
    }
    const final = await sample(page, cdp, elapsed)
    const end = await probe()
    await screenshot(page, 'slideshow-soak-end')
    const warm = samples[0]!
    const wallSeconds = (Date.now() - wallStart) / 1000
    const fired = await page.evaluate(() => (window as any).soak.fired as number)

    const figures = {
      night: `${(elapsed / HOUR).toFixed(2)} h of page clock in ${wallSeconds.toFixed(0)} s`,
      slides, invites, stalls, lockGaps: lockGaps.slice(0, 5), polls: end.polls, pollsFailed: end.pollsFailed, cuts, cutsNoticed, recovered, hides,
      wakeLock: real ? 'real' : 'stand-in', wakeRequests: end.wakeRequests, wakeHeld: end.wakeHeld,
      timersFired: fired, timersPendingMax: maxTimers,
      warm: { ...warm, heapMiB: +(warm.heapBytes / 2 ** 20).toFixed(2) },
      final: { ...final, heapMiB: +(final.heapBytes / 2 ** 20).toFixed(2) },
      hourly: samples.map(entry => `${entry.atHours}h heap ${(entry.heapBytes / 2 ** 20).toFixed(2)} MiB, ${entry.nodes} nodes, ${entry.listeners} listeners, ${entry.timers} timers`),
    }
    console.info(`slideshow soak: ${JSON.stringify(figures, null, 2)}`)

    // The page's clock really was the fake one, and it did the night.
    expect(end.now - start).toBeGreaterThanOrEqual(NIGHT_MS)
    expect(fired).toBeGreaterThan(slides)
    // Thousands of slides, hundreds of polls, the card every twelve slides.
    expect(slides).toBeGreaterThanOrEqual(2000)
    expect(stalls, 'steps whose slide or poll took over 5 s of real time').toBeLessThanOrEqual(5)
    expect(end.polls).toBeGreaterThanOrEqual(500)
    expect(invites).toBeGreaterThanOrEqual(Math.floor(slides / 12) - 2)
    // Every cut was noticed (the notice showed) and every one ended by itself.
    expect(cuts).toBeGreaterThanOrEqual(9)
    expect(cutsNoticed).toBe(cuts)
    expect(recovered).toBe(cuts)
    expect(end.offlineNotice).toBe(false)
    expect(end.pollsFailed).toBeGreaterThan(0)
    // Flat: nothing grows with the hours.
    expect(final.heapBytes, 'JS heap').toBeLessThanOrEqual(warm.heapBytes * 1.2)
    expect(final.nodes, 'DOM nodes').toBeLessThanOrEqual(warm.nodes * 1.2)
    expect(final.liveElements, 'elements in the document').toBeLessThanOrEqual(warm.liveElements + 10)
    expect(final.listeners, 'event listeners').toBeLessThanOrEqual(warm.listeners * 1.2)
    // No timers stacking: a handful pending at any step boundary, never more.
    expect(maxTimers).toBeLessThanOrEqual(10)
    expect(final.timers).toBeLessThanOrEqual(warm.timers + 2)
    // The wake lock: once at start, once after every hidden spell, one held now.
    expect(hides).toBeGreaterThanOrEqual(7)
    expect(end.wakeRequests).toBe(1 + hides)
    expect(end.wakeHeld).toBe(1)
    expect(lockGaps, 'a screen lock held whenever the page was shown').toEqual([])
  }, 600_000)
})
