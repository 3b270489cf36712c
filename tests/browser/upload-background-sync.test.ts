import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { MiB, noisyJpeg, paddedClip, photo, tempDir } from '../support/media'
import { PHONE, until } from './support/browser'
import { uploadRows } from './support/db'
import { launchPersistentChromium } from '../support/chromium'
import { startProxy, type SeenRequest, type TestProxy } from './support/proxy'

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** A video just over six 10 MiB parts: seven parts, so a multipart upload. */
const VIDEO_SIZE = 60 * MiB + 123_457
const VIDEO_PARTS = 7

/** The tag the page registers (upload-client/background-sync.ts). */
const SYNC_TAG = 'upload-queue'

/**
 * Background Sync of the guest's queue, in Chromium with the built service worker and
 * the network really cut (`context.setOffline`, which reaches the worker's own fetches too). The
 * server sits behind a counting proxy, so a test sees every init, PUT and confirm the browser made.
 *
 * Each test has a browser profile on disk (`launchPersistentContext`), as a phone has: the worker,
 * the queue's IndexedDB and the pending sync outlive the closed tab in it.
 */
describe('the service worker sends a guest\'s queue by itself (Background Sync)', () => {
  const server = useTestServer({ admin: true })
  let proxy: TestProxy
  let dir: string
  let context: BrowserContext | undefined

  beforeAll(async () => {
    dir = tempDir()
    proxy = await startProxy(server.url)
    const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { moderation: 'post', coupleNames: 'Ana & Bruno' }, cookie: server.cookie })
    expect(patch.status).toBe(200)
  })

  afterEach(async () => {
    proxy.setThrottle(0)
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await proxy?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  function phoneProfile(): Promise<BrowserContext> {
    return launchPersistentChromium(tempDir(), {
      baseURL: proxy.url,
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'pt-BR',
    })
  }

  /** /enviar hydrated, its queue started, and controlled by the activated worker. */
  async function openUploadPage(profile: BrowserContext): Promise<Page> {
    const page = await profile.newPage()
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000, polling: 200 })
    return page
  }

  /**
   * A CDP session that knows the worker's registration, opened from a blank tab (no page of the
   * app): it outlives the closed /enviar tab, and can fire the worker's real `sync` event.
   */
  async function workerControl(profile: BrowserContext) {
    const blank = await profile.newPage()
    const cdp: CDPSession = await profile.newCDPSession(blank)
    const registrations = new Map<string, string>()
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const registration of updated) if (!registration.isDeleted) registrations.set(registration.scopeURL, registration.registrationId)
    })
    await cdp.send('ServiceWorker.enable')
    const registrationId = await until(() => registrations.get(`${proxy.url}/`), 10_000, 'the worker\'s registration')
    return {
      dispatchSync: () => cdp.send('ServiceWorker.dispatchSyncEvent', { origin: proxy.url, registrationId, tag: SYNC_TAG, lastChance: false }),
    }
  }

  /** The syncs the worker's registration still waits to fire. */
  const syncTags = (worker: Worker) => worker.evaluate(() =>
    (self as unknown as { registration: { sync: { getTags(): Promise<string[]> } } }).registration.sync.getTags())

  const requestsSince = (from: number, method: string, path: RegExp): SeenRequest[] =>
    proxy.seen.slice(from).filter(entry => entry.method === method && path.test(entry.path))
  const inits = (from: number) => requestsSince(from, 'POST', /^\/api\/uploads\/init$/)
  const confirms = (from: number) => requestsSince(from, 'POST', /^\/api\/uploads\/[^/]+\/confirm$/)
  /** The original's bytes (a photo's public images go to staging/media/). */
  const puts = (from: number) => requestsSince(from, 'PUT', /^\/media\/staging\/orig\//)

  async function confirmedRow(fileName: string) {
    return (await uploadRows(server.dbPath)).find(row => row.file_name === fileName && row.confirmed_at)
  }

  /**
   * The file went once, and every request of it came from the worker: one init, one PUT of its
   * bytes, one confirm, one confirmed upload.
   *
   * One init from the page is let through, if it came before the test restored the network: a
   * harness artefact, not a second sender. Playwright lifts its offline emulation from a page as
   * it detaches from it, so a closing page can see itself online for a moment and ask for an init;
   * its answer is lost with the page, and the worker, once holding the file's lock, inits with the
   * same key: the server answers it (200) with that upload rather than a second one. It sends no bytes.
   */
  async function expectSentByWorkerAlone(from: number, restoredAt: number, fileName: string) {
    const script = `${proxy.url}/sw.js`
    // The server writes the confirmed row, then answers: a test that saw the row may get here
    // before the confirm's answer has come back through the proxy (its status still null).
    await until(() => confirms(from).at(-1)?.status, 10_000, 'the confirm\'s answer through the proxy')
    const bySender = (entries: SeenRequest[]) => entries.map(entry => [entry.status, entry.referer])
    const escaped = inits(from).filter(entry => entry.referer !== script)
    expect(escaped.length).toBeLessThanOrEqual(1)
    for (const init of escaped) {
      expect([init.referer, init.status]).toEqual([`${proxy.url}/enviar`, 201])
      expect(init.at).toBeLessThanOrEqual(restoredAt)
    }
    expect(bySender(inits(from).filter(entry => entry.referer === script))).toEqual([[escaped.length ? 200 : 201, script]])
    expect(bySender(puts(from))).toEqual([[200, script]])
    expect(bySender(confirms(from))).toEqual([[200, script]])
    // One upload in all, confirmed: the escaped init's is the one the worker finished.
    expect((await uploadRows(server.dbPath)).filter(row => row.file_name === fileName).map(row => row.confirmed_at !== null)).toEqual([true])
  }

  /** Picks one file on /enviar, which sends it with no further tap: answers its row. */
  async function pickAndSend(page: Page, file: string) {
    await page.setInputFiles('input[type=file]', [file])
    const row = page.locator('[data-testid=upload-item]')
    await until(async () => (await row.count()) === 1, 15_000, 'the row')
    return row
  }

  it('a photo sent offline goes when the network returns with the tab closed, and /enviar shows it sent', async () => {
    context = await phoneProfile()
    const page = await openUploadPage(context)

    await context.setOffline(true)
    const file = await photo(dir, 'IMG_SYNC.jpg', 'sync', 120)
    await page.fill('input[name=author]', 'Tia Rosa')
    const row = await pickAndSend(page, file)
    // Paused: hashed, saved as sent by the guest, and its init refused by the cut.
    await until(async () => (await row.getAttribute('data-phase')) === 'paused', 10_000, 'waiting for the network')
    const from = proxy.seen.length

    // The guest closes the tab, still offline; no page of the app is open from here on. The
    // page held the file's lock while it waited: the worker sees it let go once the page is gone.
    const worker = context.serviceWorkers()[0]!
    await page.close()
    const appPages = () => context!.pages().filter(open => open.url().startsWith(proxy.url))
    expect(appPages()).toEqual([])
    await until(async () => (await worker.evaluate(() => navigator.locks.query())).held?.length === 0, 10_000, 'the closed page\'s lock let go')
    expect(await syncTags(worker)).toEqual([SYNC_TAG])
    expect(await confirmedRow('IMG_SYNC.jpg')).toBeUndefined()

    // Chromium fires the sync by itself once the network is back (found here: within
    // milliseconds of `setOffline(false)`; its Background Sync follows the network state DevTools
    // emulates for the worker). Nothing here dispatches the event.
    const restoredAt = Date.now()
    await context.setOffline(false)
    const stored = await until(() => confirmedRow('IMG_SYNC.jpg'), 60_000, 'the photo confirmed by the worker')
    expect(stored).toMatchObject({ status: 'approved', kind: 'photo', content_type: 'image/jpeg', author: 'Tia Rosa', size: readFileSync(file).length, content_hash: sha256(file) })
    expect(sha256(join(server.mediaDir, stored.storage_key))).toBe(sha256(file))
    // One upload, made by the worker while no page of the app was open (no poster or public
    // images from a worker: the server derived them at confirm).
    await expectSentByWorkerAlone(from, restoredAt, 'IMG_SYNC.jpg')
    expect(appPages()).toEqual([])
    // The sync ended well (its event completes once the record and the stored file are written): nothing left to retry.
    await until(async () => (await syncTags(worker)).length === 0, 10_000, 'the sync done, not waiting for a retry')

    // The guest opens /enviar again: the photo is there, sent, with its "Remover" still open.
    const sent = proxy.seen.length
    const again = await openUploadPage(context)
    const rowAgain = again.locator('[data-testid=upload-item]')
    await until(async () => (await rowAgain.getAttribute('data-state')) === 'done', 15_000, 'the row shown sent')
    await again.locator('[data-testid=upload-success]').waitFor({ timeout: 10_000 })
    // The row's "Remover", the only one for the photo (the server's entry for it sits in the same row).
    await rowAgain.locator('[data-testid=upload-remove]').waitFor({ timeout: 5_000 })
    expect(inits(sent)).toEqual([])
    expect(puts(sent)).toEqual([])
  }, 150_000)

  it('/enviar opened while the worker sends a file waits for it, then shows it sent, without sending it again', async () => {
    context = await phoneProfile()
    const page = await openUploadPage(context)
    const file = await noisyJpeg(dir, 'IMG_REOPEN.jpg', 2 * 1024 * 1024)
    await context.setOffline(true)
    const row = await pickAndSend(page, file)
    await until(async () => (await row.getAttribute('data-phase')) === 'paused', 10_000, 'waiting for the network')
    const worker = context.serviceWorkers()[0]!
    const from = proxy.seen.length
    await page.close()
    await until(async () => (await worker.evaluate(() => navigator.locks.query())).held?.length === 0, 10_000, 'the closed page\'s lock let go')

    // A weak uplink: the worker's PUT lasts while the guest opens the page again.
    proxy.setThrottle(128 * 1024)
    const restoredAt = Date.now()
    await context.setOffline(false)
    await until(() => puts(from).length === 1, 20_000, 'the worker\'s PUT under way')
    const again = await openUploadPage(context)
    const rowAgain = again.locator('[data-testid=upload-item]')
    await until(async () => (await rowAgain.count()) === 1, 15_000, 'the row again')
    // The page waits for the file's lock, which the worker holds: it shows the file waiting, not sending.
    const { held } = await again.evaluate(() => navigator.locks.query())
    expect(held?.map(lock => lock.name)).toEqual([expect.stringMatching(/^upload-queue:/)])
    expect(await rowAgain.getAttribute('data-phase')).toBe('queued')

    proxy.setThrottle(0)
    await until(async () => (await rowAgain.getAttribute('data-state')) === 'done', 60_000, 'the row shown sent')
    await expectSentByWorkerAlone(from, restoredAt, 'IMG_REOPEN.jpg')
    const stored = await confirmedRow('IMG_REOPEN.jpg')
    expect(sha256(join(server.mediaDir, stored!.storage_key))).toBe(sha256(file))
  }, 150_000)

  it('a 60 MiB video left by the closed tab goes in parts from the worker, across two syncs, never a part twice', async () => {
    context = await phoneProfile()
    const page = await openUploadPage(context)
    const video = paddedClip(dir, 'VID_SYNC.mp4', VIDEO_SIZE)
    await context.setOffline(true)
    await page.fill('[name=message]', 'Enviado pelo service worker')
    const row = await pickAndSend(page, video)
    await until(async () => (await row.getAttribute('data-phase')) === 'paused', 30_000, 'hashed and waiting for the network')
    const worker = context.serviceWorkers()[0]!
    const control = await workerControl(context)
    const from = proxy.seen.length
    await page.close()
    await until(async () => (await worker.evaluate(() => navigator.locks.query())).held?.length === 0, 10_000, 'the closed page\'s lock let go')

    // The first sync: the network returns, then drops again after two parts.
    const storedParts = () => proxy.seen.slice(from).filter(entry => entry.method === 'PUT' && entry.part !== null && entry.status === 200).length
    proxy.setThrottle(6 * MiB)
    const restoredAt = Date.now()
    await context.setOffline(false)
    await until(() => storedParts() >= 2, 60_000, 'two parts stored by the worker')
    await context.setOffline(true)
    // (Bodies already on the wire finish; the worker's next requests fail, and its sync ends.)
    await until(async () => (await worker.evaluate(() => navigator.locks.query())).held?.length === 0, 30_000, 'the worker\'s first sync over')
    const storedInFirstSync = storedParts()
    expect(storedInFirstSync).toBeLessThan(VIDEO_PARTS)

    // The second sync. Chromium retries a failed sync only minutes later (its own back-off), so
    // the test fires that retry now through CDP, with the network back.
    await context.setOffline(false)
    proxy.setThrottle(0)
    await control.dispatchSync()
    const stored = await until(() => confirmedRow('VID_SYNC.mp4'), 90_000, 'the video confirmed by the worker')
    expect(stored).toMatchObject({ status: 'approved', kind: 'video', content_type: 'video/mp4', size: VIDEO_SIZE, message: 'Enviado pelo service worker' })
    // Hashed in the worker, in chunks (no worker of its own to start), as the page would have.
    expect(stored.content_hash).toBe(sha256(video))
    expect(sha256(join(server.mediaDir, stored.storage_key))).toBe(sha256(video))
    // Every part once: the second sync asked fresh URLs for the missing ones only.
    expect([...proxy.partsStored().entries()].sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: VIDEO_PARTS }, (_, i) => [i + 1, 1]))
    const script = `${proxy.url}/sw.js`
    // One init from the worker; or, after the closing page's escaped init (see
    // expectSentByWorkerAlone), the worker's init answered with that upload (200). When the two
    // meet while the page's is still opening its multipart upload, the worker's is told to try
    // again soon (503, init-replay.ts) first: the last CI saw that, [503, 200].
    const escaped = inits(from).filter(entry => entry.referer !== script)
    const workerInits = inits(from).filter(entry => entry.referer === script)
    const said = JSON.stringify(inits(from).map(entry => [entry.referer === script ? 'worker' : 'page', entry.status, entry.at - restoredAt]))
    expect(escaped.map(entry => entry.status), said).toEqual(escaped.length ? [201] : [])
    expect(escaped.length ? [[200], [503, 200]] : [[201]], said).toContainEqual(workerInits.map(entry => entry.status))
    expect(new Set(inits(from).map(entry => JSON.parse(entry.body!).clientKey)).size, said).toBe(1)
    expect((await uploadRows(server.dbPath)).filter(row => row.file_name === 'VID_SYNC.mp4')).toHaveLength(1)
    expect(proxy.seen.slice(from).filter(entry => entry.method === 'PUT' && entry.part !== null && entry.referer !== script)).toEqual([])
    expect(inits(from).filter(entry => entry.referer !== script).every(entry => entry.at <= restoredAt)).toBe(true)
  }, 180_000)

  it('a sync fired while the page sends a file waits for it, and the file goes once: one init, one PUT, one confirm', async () => {
    context = await phoneProfile()
    const page = await openUploadPage(context)
    const control = await workerControl(context)
    const file = await noisyJpeg(dir, 'IMG_BOTH.jpg', 3 * 1024 * 1024)
    const from = proxy.seen.length
    // A phone's uplink: the page's PUT lasts a few seconds.
    proxy.setThrottle(512 * 1024)
    const row = await pickAndSend(page, file)
    await until(() => puts(from).length === 1, 20_000, 'the page\'s PUT under way')
    const key = await page.evaluate(async () => (await navigator.locks.query()).held?.map(lock => lock.name) ?? [])
    expect(key).toHaveLength(1)
    expect(key[0]).toMatch(/^upload-queue:/)

    await control.dispatchSync()
    // The worker asks for the same file's lock and waits: the page holds it.
    await until(async () => {
      const { pending } = await page.evaluate(() => navigator.locks.query())
      return pending?.some(lock => lock.name === key[0])
    }, 10_000, 'the worker waiting for the file\'s lock')

    proxy.setThrottle(0)
    await until(async () => (await row.getAttribute('data-state')) === 'done', 60_000, 'the page\'s upload done')
    // The worker got the lock once the page let it go, read the record again (sent), and let it go.
    await until(async () => {
      const { held, pending } = await page.evaluate(() => navigator.locks.query())
      return !held?.length && !pending?.length
    }, 20_000, 'the worker done with the file')
    await page.waitForTimeout(1000)
    expect(inits(from).map(entry => entry.status)).toEqual([201])
    expect(puts(from).map(entry => entry.status)).toEqual([200])
    expect(confirms(from).map(entry => entry.status)).toEqual([200])
    const stored = (await uploadRows(server.dbPath)).filter(entry => entry.file_name === 'IMG_BOTH.jpg')
    expect(stored).toHaveLength(1)
    expect(sha256(join(server.mediaDir, stored[0]!.storage_key))).toBe(sha256(file))
  }, 150_000)
})
