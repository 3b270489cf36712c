import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest'
import { chromium } from 'playwright-core'
import { DESKTOP, PHONE } from './browser'
import { launchChromium } from '../../support/chromium'
import { watchPage, type WatchedPage } from '../../support/watch-page'

/** How a context looks: a phone (narrow, touch, density 2), a 1080p screen, or any viewport. */
export type Device = 'phone' | 'desktop' | { width: number, height: number }

export type ContextOptions = BrowserContextOptions

export interface BrowserFixture {
  /** The file's browser (from beforeAll on). */
  readonly browser: Browser
  /**
   * A fresh context (its own cookies, storage, service workers), in pt-BR on the suite's server
   * unless `options` say otherwise. Opened in a test, it is closed after that test; opened in
   * beforeAll, after the file.
   */
  context(device?: Device, options?: ContextOptions): Promise<BrowserContext>
  /** A page in a fresh context, at `path` when given. */
  page(device?: Device, path?: string, options?: ContextOptions): Promise<Page>
  /**
   * A page watched for what must never happen (an uncaught error, a CSP violation, an error in the
   * console): after every test the fixture fails the test on what its open watched pages saw.
   * A 1280×800 laptop unless told otherwise, in São Paulo's time zone.
   */
  watched(device?: Device, options?: ContextOptions): Promise<WatchedPage>
}

export interface BrowserFixtureOptions {
  /** The server the contexts' relative addresses go to (a `useTestServer` handle, a proxy…). */
  server?: { readonly url: string }
  /** Extra Chromium flags (FAKE_MEDIA_DEVICES…): such a file gets a browser of its own. */
  args?: readonly string[]
}

/** The admin's usual screen, where watched pages open unless told otherwise. */
const LAPTOP = { width: 1280, height: 800 }

const DEVICES = {
  phone: { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: DESKTOP },
} satisfies Record<string, ContextOptions>

function deviceOptions(device: Device): ContextOptions {
  return typeof device === 'string' ? DEVICES[device] : { viewport: device }
}

/**
 * The browser half of a browser test file, set up and torn down by one call beside
 * `useTestServer`: the worker's shared Chromium (the browser project's global set-up starts one
 * and each file connects to it; a file with its own flags, or run outside vitest's browser project,
 * launches its own), contexts that close with the test or hook that opened them, and the watched
 * pages' check. Register it after `useTestServer` so the server is up before the browser is used
 * and still up while contexts close.
 */
export function useBrowser(options: BrowserFixtureOptions = {}): BrowserFixture {
  let browser: Browser | undefined
  const fileContexts: BrowserContext[] = []
  let testContexts: BrowserContext[] | undefined
  const watchedPages = new Set<WatchedPage>()

  beforeAll(async () => {
    const endpoint = options.args?.length ? undefined : inject('chromiumEndpoint')
    browser = endpoint ? await chromium.connect(endpoint) : await launchChromium(options.args)
  })
  beforeEach(() => {
    testContexts = []
  })
  afterEach(async () => {
    const opened = testContexts ?? []
    testContexts = undefined
    const problems = [...watchedPages].flatMap(watched => watched.problems.splice(0))
    await Promise.all(opened.map(context => context.close()))
    expect(problems, 'uncaught errors or CSP violations in the page').toEqual([])
  })
  afterAll(async () => {
    await Promise.all(fileContexts.map(context => context.close()))
    await browser?.close()
  })

  function running(): Browser {
    if (!browser) throw new Error('useBrowser: the browser starts in beforeAll; open contexts inside tests and hooks')
    return browser
  }

  async function context(device: Device = 'desktop', contextOptions: ContextOptions = {}): Promise<BrowserContext> {
    const opened = await running().newContext({ baseURL: options.server?.url, locale: 'pt-BR', ...deviceOptions(device), ...contextOptions })
    const scope = testContexts ?? fileContexts
    scope.push(opened)
    opened.once('close', () => {
      const at = scope.indexOf(opened)
      if (at >= 0) scope.splice(at, 1)
      for (const watched of watchedPages) if (watched.context === opened) watchedPages.delete(watched)
    })
    return opened
  }

  return {
    get browser() { return running() },
    context,
    async page(device: Device = 'desktop', path?: string, contextOptions?: ContextOptions) {
      const page = await (await context(device, contextOptions)).newPage()
      if (path !== undefined) await page.goto(path)
      return page
    },
    async watched(device: Device = LAPTOP, contextOptions?: ContextOptions) {
      const opened = await context(device, { timezoneId: 'America/Sao_Paulo', ...contextOptions })
      const watched = await watchPage(opened)
      watchedPages.add(watched)
      return watched
    },
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's address (tests/browser/support/global-browser.ts), when one runs. */
    chromiumEndpoint: string | undefined
  }
}
