import { createHash } from 'node:crypto'
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { jpegWithGps } from '../support/fixtures'
import { api } from '../support/http'
import { waitForDerived } from '../support/seed'
import { screenshot, until } from './support/browser'
import { expectAccessible } from './support/axe'
import { uploadRows } from './support/db'
import { locationTags, makeLocationVideos, packetHashes } from '../support/location-videos'
import { copyClip, distinctCopy, MiB, noisyJpeg, paddedClip, photo, tempDir } from '../support/media'
import { useBrowser } from './support/fixture'
import { startProxy, type TestProxy } from './support/proxy'

// 60 MiB and a bit: six full 10 MiB parts and a small seventh.
const VIDEO_SIZE = 60 * MiB + 123_457
const VIDEO_PARTS = 7

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

describe('guest upload page /enviar (phone, real server)', () => {
  const server = useTestServer({ admin: true })
  let proxy: TestProxy
  const pages = useBrowser({ server })
  let dir: string
  let photo1: string
  let photo2: string
  let video: string
  // The same files, for tests that copy them (distinctCopy) without shadowing confusion.
  const sharedVideo = () => video
  const sharedPhoto1 = () => photo1
  const sharedPhoto2 = () => photo2
  let context: BrowserContext | undefined

  const setEvent = async (patch: Record<string, unknown>) => {
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
  }

  async function openPage(): Promise<Page> {
    context = await pages.context('phone', { baseURL: proxy.url })
    const page = await context.newPage()
    await page.goto('/enviar')
    // Hydrated and the queue started: the picker answers.
    await page.locator('main[data-ready]').waitFor()
    return page
  }

  const rows = (page: Page) => page.locator('[data-testid=upload-item]')
  const states = (page: Page) => rows(page).evaluateAll(els => els.map(el => el.getAttribute('data-state')))
  /** The parts the queue has written down for its video (upload-client/store.ts's record), read from IndexedDB. */
  const recordedParts = (page: Page) => page.evaluate(async () => {
    const open = indexedDB.open('event-media-upload-queue')
    const db = await new Promise<IDBDatabase>(resolve => open.onsuccess = () => resolve(open.result))
    const all = db.transaction('records').objectStore('records').getAll()
    const records = await new Promise<{ kind: string, partsDone: number[] }[]>(resolve => all.onsuccess = () => resolve(all.result))
    db.close()
    return records.find(record => record.kind === 'video')?.partsDone ?? []
  })

  beforeAll(async () => {
    dir = tempDir()
    ;[photo1, photo2] = await Promise.all([photo(dir, 'IMG_0001.jpg', 'Ana', 340), photo(dir, 'IMG_0002.jpg', 'Bruno', 200)])
    video = paddedClip(dir, 'VID_0003.mp4', VIDEO_SIZE)
    proxy = await startProxy(server.url)
    await setEvent({ coupleNames: 'Ana & Bruno', eventDate: '2026-12-12', moderation: 'post' })
  })

  afterEach(async () => {
    proxy?.setThrottle(0)
    proxy?.hold(false)
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await proxy?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sends two photos and a 60 MiB video with real progress to done, approved under post-moderation', async () => {
    const page = await openPage()
    const confirms: { id: string, status: string }[] = []
    page.on('response', async (response) => {
      if (/\/api\/uploads\/[^/]+\/confirm$/.test(new URL(response.url()).pathname) && response.status() === 200) {
        confirms.push(await response.json())
      }
    })
    // ~12 MiB/s: fast, but slow enough that progress is seen between 0 and 100, also on a loaded
    // machine where the page's frames come late (at 25 MiB/s a CI run under load saw only 5 values).
    proxy.setThrottle(12 * MiB)
    await screenshot(page, 'enviar-phone-empty')
    await expectAccessible(page, '/enviar, empty, on a phone')

    // The words first, as a guest fills them; the files go the moment they are picked, no button.
    await page.fill('[name=author]', 'Tia Maria')
    await page.fill('[name=message]', 'Felicidades aos noivos!')
    // Every value the video's progress element shows on the way, sampled in the page from its first frame.
    await page.evaluate(() => {
      const seen: number[] = []
      ;(window as unknown as { progressSeen: number[] }).progressSeen = seen
      const sample = () => {
        const bar = document.querySelector('[data-testid=upload-item][data-name="VID_0003.mp4"] [data-progress]')
        const value = bar ? Number(bar.getAttribute('data-progress')) : null
        if (value !== null && seen.at(-1) !== value) seen.push(value)
        if (value === null || value < 100) requestAnimationFrame(sample)
      }
      sample()
    })
    await page.setInputFiles('input[type=file]', [photo1, photo2, video])
    await until(async () => (await rows(page).count()) === 3, 15_000, 'three rows')
    expect(await page.locator('[data-testid=send]').count()).toBe(0)
    await until(async () => (await states(page)).includes('uploading'), 10_000, 'uploading')
    await until(async () => (await page.locator('[data-testid=upload-item] img').count()) === 3, 15_000, 'thumbnails')
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'enviar-phone-picked')
    await expectAccessible(page, '/enviar with files picked and going, on a phone')
    await until(async () => {
      const bar = page.locator('[data-testid=upload-item][data-name="VID_0003.mp4"] [data-progress]')
      const value = Number(await bar.getAttribute('data-progress'))
      return value > 20 && value < 90
    }, 30_000, 'video half-way')
    await screenshot(page, 'enviar-phone-uploading')

    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
    expect(await states(page)).toEqual(['done', 'done', 'done'])
    expect(await rows(page).locator('[data-progress]').evaluateAll(els => els.map(el => el.getAttribute('data-progress')))).toEqual(['100', '100', '100'])
    const progressSeen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen)
    // Real byte progress: it climbs through many values, never backwards, from 0 to 100.
    expect(progressSeen[0]).toBe(0)
    expect(progressSeen.at(-1)).toBe(100)
    expect(progressSeen.filter(v => v > 0 && v < 100).length).toBeGreaterThan(5)
    expect([...progressSeen].sort((a, b) => a - b)).toEqual(progressSeen)
    await expect(page.locator('[data-testid=upload-success] a[href="/galeria"]').count()).resolves.toBe(1)
    await expect(page.locator('[data-testid=upload-after-approval]').count()).resolves.toBe(0)
    await screenshot(page, 'enviar-phone-done')
    await expectAccessible(page, '/enviar, all sent, on a phone')

    // The video went in parts, each stored exactly once; the photos in one PUT each.
    expect([...proxy.partsStored().entries()].sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: VIDEO_PARTS }, (_, i) => [i + 1, 1]))

    // What the server recorded: three approved uploads with the guest's words and the exact bytes.
    expect(confirms.map(c => c.status)).toEqual(['approved', 'approved', 'approved'])
    const recorded = await uploadRows(server.dbPath)
    expect(recorded).toHaveLength(3)
    const byName = new Map(recorded.map(row => [row.file_name, row]))
    for (const [name, path, kind, type] of [
      ['IMG_0001.jpg', photo1, 'photo', 'image/jpeg'], ['IMG_0002.jpg', photo2, 'photo', 'image/jpeg'], ['VID_0003.mp4', video, 'video', 'video/mp4'],
    ] as const) {
      const row = byName.get(name)!
      expect(row).toMatchObject({ status: 'approved', kind, content_type: type, author: 'Tia Maria', message: 'Felicidades aos noivos!', size: statSync(path).size })
      expect(row.confirmed_at).not.toBeNull()
      expect(sha256(join(server.mediaDir, row.storage_key))).toBe(sha256(path))
      // The phone declared the SHA-256 of what it sent (the 60 MiB video's in a worker, in chunks).
      expect(row.content_hash).toBe(sha256(path))
      // Confirming again answers the recorded state: the contract's own way to ask.
      const again = await api(server.url, `/api/uploads/${row.id}/confirm`, { method: 'POST' })
      expect(again.body).toEqual({ id: row.id, status: 'approved' })
    }
    // The public gallery lists all three.
    const gallery = await api(server.url, '/api/gallery')
    expect(gallery.status).toBe(200)
    const ids = gallery.body.items.map((item: { id: string }) => item.id)
    for (const row of recorded) expect(ids).toContain(row.id)

    // The author is remembered on the device for next time.
    // After a reload the finished rows are still listed with the success state; "send more" clears them.
    await page.reload()
    await page.locator('[data-testid=upload-success]').waitFor()
    expect(await states(page)).toEqual(['done', 'done', 'done'])
    await page.getByRole('button', { name: 'Enviar mais' }).click()
    expect(await rows(page).count()).toBe(0)
    await expect(page.inputValue('[name=author]')).resolves.toBe('Tia Maria')

    // The home page shows the cover once the admin sets one.
    const coverId = byName.get('IMG_0001.jpg')!.id
    // (Derived first, so the page and the API name the same public picture, not two signed URLs.)
    await waitForDerived(server.url, server.cookie, coverId)
    const cover = await api(server.url, `/api/admin/uploads/${coverId}/cover`, { method: 'POST', cookie: server.cookie })
    expect(cover.status, JSON.stringify(cover.body)).toBe(200)
    expect(cover.body.coverUploadId).toBe(coverId)
    await page.goto('/')
    await page.locator('[data-testid=cover]').waitFor()
    // The picture is the chosen upload's, as the public event answer names it.
    const publicEvent = await api(server.url, '/api/event')
    expect(publicEvent.body.cover.id).toBe(coverId)
    // (The page came through the proxy: the media address follows the request's origin.)
    const coverSrc = new URL((await page.getAttribute('[data-testid=cover]', 'src'))!)
    expect(coverSrc.origin).toBe(proxy.url)
    expect(coverSrc.pathname).toBe(new URL(publicEvent.body.cover.url).pathname)
    await expect(page.locator('h1').textContent()).resolves.toContain('Ana & Bruno')
    await expect(page.textContent('time')).resolves.toBe('12 de dezembro de 2026')
    await page.waitForFunction(() => (document.querySelector('[data-testid=cover]') as HTMLImageElement).complete)
    await screenshot(page, 'home-phone-cover')
    await expectAccessible(page, 'the home page with its cover, on a phone')
  })

  it('going offline in the middle of the video\'s parts and online again finishes without sending a part twice', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const video = distinctCopy(sharedVideo())
    const page = await openPage()
    const before = proxy.seen.length
    const storedParts = () => proxy.seen.slice(before).filter(e => e.method === 'PUT' && e.part !== null && e.status === 200).length
    proxy.setThrottle(6 * MiB)
    await page.fill('[name=message]', 'Sem internet no meio')
    await page.setInputFiles('input[type=file]', [video])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await until(() => storedParts() >= 2, 60_000, 'two parts stored')

    await context!.setOffline(true)
    await page.locator('[data-testid=upload-offline]').waitFor({ timeout: 10_000 })
    // The row says at once that it waits, with the percentage it really reached: never a full bar.
    expect(await states(page)).toEqual(['paused'])
    // (Chromium lets bodies already on the wire finish; every new request fails while offline.)
    await page.waitForTimeout(500)
    const offlineFrom = proxy.seen.length
    const progressOffline = Number(await rows(page).locator('[data-progress]').getAttribute('data-progress'))
    await page.waitForTimeout(2500)
    expect(await states(page)).toEqual(['paused'])
    const progressLater = Number(await rows(page).locator('[data-progress]').getAttribute('data-progress'))
    expect(progressLater).toBeGreaterThanOrEqual(progressOffline)
    expect(progressLater).toBeLessThan(100)
    expect(await rows(page).locator('.upload-item__status').textContent()).toBe('Pausado, sem conexão')
    // The summary says so too, wherever the guest has scrolled.
    const summary = page.locator('[data-testid=upload-summary]')
    expect(await summary.getAttribute('data-state')).toBe('paused')
    expect(await summary.textContent()).toContain('Sem conexão · pausado')
    // (Read together: bodies already on the wire may still be finishing.)
    const [rowPercent, summaryPercent] = await page.evaluate(() => [
      document.querySelector('[data-testid=upload-item] [data-progress]')!.getAttribute('data-progress'),
      document.querySelector('[data-testid=upload-summary]')!.getAttribute('data-percent'),
    ])
    expect(summaryPercent).toBe(rowPercent)
    expect(await summary.getAttribute('data-done')).toBe('0')
    for (const y of [0, 100_000]) {
      await page.evaluate(top => window.scrollTo(0, top), y)
      await expect(summary.evaluate(el => el.getBoundingClientRect().bottom <= window.innerHeight && el.getBoundingClientRect().top >= 0)).resolves.toBe(true)
    }
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'enviar-phone-paused')
    const storedWhileOffline = storedParts()
    expect(storedWhileOffline).toBeLessThan(VIDEO_PARTS)
    // Nothing reached the server while offline: the queue waited instead of burning retries.
    expect(proxy.seen.slice(offlineFrom).filter(e => e.method === 'PUT')).toEqual([])

    await context!.setOffline(false)
    await until(async () => (await states(page))[0] === 'uploading', 15_000, 'sending again')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 90_000 })
    expect(await states(page)).toEqual(['done'])
    // Progress never restarted from zero: the stored parts still counted after the pause.
    expect(progressOffline).toBeGreaterThan(0)
    expect(await summary.evaluate(el => [el.dataset.state, el.dataset.done, el.dataset.total, el.dataset.percent])).toEqual(['done', '1', '1', '100'])

    const mine = proxy.seen.slice(before)
    const inits = mine.filter(e => e.path === '/api/uploads/init')
    expect(inits).toHaveLength(1)
    const stored = new Map<number, number>()
    for (const e of mine) if (e.method === 'PUT' && e.part !== null && e.status === 200) stored.set(e.part, (stored.get(e.part) ?? 0) + 1)
    expect([...stored.entries()].sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: VIDEO_PARTS }, (_, i) => [i + 1, 1]))
    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Sem internet no meio')
    expect(row).toMatchObject({ status: 'approved', size: VIDEO_SIZE })
    expect(sha256(join(server.mediaDir, row!.storage_key))).toBe(sha256(video))
  })

  it('seven photos: a summary stays in view while they go, counts files and bytes, and ends at "Tudo enviado" 7/7/100', async () => {
    // Seven different photos: noisyJpeg draws the same noise each time, and the same bytes go once.
    const photos = (await Promise.all(Array.from({ length: 7 }, (_, i) => noisyJpeg(dir, `FESTA_${i + 1}.jpg`, 3 * MiB)))).map(distinctCopy)
    const totalBytes = photos.reduce((sum, path) => sum + statSync(path).size, 0)
    const page = await openPage()
    // Slow enough that the batch takes seconds: the summary is seen in the middle.
    proxy.setThrottle(3 * MiB)
    await page.setInputFiles('input[type=file]', photos)
    await until(async () => (await rows(page).count()) === 7, 20_000, 'seven rows')
    const summary = page.locator('[data-testid=upload-summary]')
    // Every percentage the summary shows on the way once all seven are counted, sampled in the page.
    await page.evaluate(() => {
      const seen: number[] = []
      ;(window as unknown as { percentSeen: number[] }).percentSeen = seen
      const sample = () => {
        const value = document.querySelector('[data-testid=upload-summary]')?.getAttribute('data-percent')
        if (value !== null && value !== undefined && seen.at(-1) !== Number(value)) seen.push(Number(value))
        if (seen.at(-1) !== 100) requestAnimationFrame(sample)
      }
      sample()
    })
    await summary.waitFor({ timeout: 10_000 })
    expect(await summary.getAttribute('data-total')).toBe('7')
    const headline = summary.locator('.upload-summary__headline')
    await until(async () => /^Enviando [1-7] de 7 · \d+%$/.test((await headline.textContent())!.trim()), 10_000, 'sending words')
    const totalMB = (Math.floor((totalBytes / MiB) * 10) / 10).toFixed(1).replace('.', ',')
    expect(await summary.locator('.upload-summary__bytes').textContent()).toMatch(new RegExp(`^\\d+,\\d de ${totalMB} MB$`))
    // Visible at the top of the page and at the bottom, while the batch goes; the name and the
    // message ride in the same bar (one pair of fields on the page), editable wherever it is scrolled.
    const words = page.locator('[data-testid=upload-words]')
    expect(await words.count()).toBe(1)
    expect(await page.locator('[name=author]').count()).toBe(1)
    const inView = (what: typeof summary) => what.evaluate((el) => {
      const box = el.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0
    })
    await page.evaluate(() => window.scrollTo(0, 0))
    expect(await inView(summary)).toBe(true)
    expect(await inView(words)).toBe(true)
    expect(await summary.getAttribute('data-state')).toBe('sending')
    await screenshot(page, 'enviar-phone-summary-top')
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    expect(await inView(summary)).toBe(true)
    expect(await inView(words)).toBe(true)
    await screenshot(page, 'enviar-phone-summary-bottom')
    // Typed in the bar mid-batch, at the bottom of the page: the words reach the batch.
    await page.fill('[name=message]', 'Do rodapé')

    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 90_000 })
    expect(await summary.evaluate(el => [el.dataset.state, el.dataset.done, el.dataset.total, el.dataset.percent])).toEqual(['done', '7', '7', '100'])
    expect((await headline.textContent())!.trim()).toBe('Tudo enviado')
    expect((await summary.locator('.upload-summary__bytes').textContent())!.trim()).toBe('7 de 7 arquivos')
    expect(await states(page)).toEqual(Array(7).fill('done'))
    const percentSeen = await page.evaluate(() => (window as unknown as { percentSeen: number[] }).percentSeen)
    // By bytes: it climbs through values between, never backwards, and reaches 100 only at the end.
    expect(percentSeen.at(-1)).toBe(100)
    expect(percentSeen.filter(v => v > 0 && v < 100).length).toBeGreaterThan(2)
    expect([...percentSeen].sort((a, b) => a - b)).toEqual(percentSeen)
    const stored = (await uploadRows(server.dbPath)).filter(row => row.file_name.startsWith('FESTA_'))
    expect(stored.reduce((sum, row) => sum + row.size, 0)).toBe(totalBytes)
    const messages = async () => (await uploadRows(server.dbPath)).filter(row => row.file_name.startsWith('FESTA_')).map(row => row.message)
    await expect.poll(messages, { timeout: 10_000 }).toEqual(Array(7).fill('Do rodapé'))
  })

  it('reloading /enviar in the middle of an upload resumes it by itself, asking fresh URLs only for the missing parts', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const video = distinctCopy(sharedVideo())
    const page = await openPage()
    const before = proxy.seen.length
    const storedParts = () => proxy.seen.slice(before).filter(e => e.method === 'PUT' && e.part !== null && e.status === 200)
    proxy.setThrottle(6 * MiB)
    await page.fill('[name=message]', 'Depois do recarregar')
    await page.setInputFiles('input[type=file]', [video])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await until(() => storedParts().length >= 2, 60_000, 'two parts stored')

    // Bodies still on their way are held, so none can finish behind the page's back while it reloads.
    proxy.hold(true)
    await page.waitForTimeout(300)
    const afterReload = proxy.seen.length
    const storedBefore = new Set(proxy.seen.slice(before, afterReload).filter(e => e.part !== null && e.status === 200).map(e => e.part))
    // A part whose body was wholly on its way may still be stored although the page never heard
    // back: the page cannot know, so sending it again is right. Only these may appear twice.
    const unanswered = new Set(proxy.seen.slice(before, afterReload).filter(e => e.part !== null && e.status === null).map(e => e.part))
    await page.reload()
    proxy.hold(false)
    // Nothing clicked: the queue comes back from IndexedDB and goes on, and says what it does
    // (not "where it stopped": a file under 50 MiB starts again from zero).
    await until(async () => ((await page.locator('[data-testid=upload-summary]').textContent()) ?? '').includes('Retomando seus envios.'), 15_000, 'resume words')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 90_000 })
    expect(await states(page)).toEqual(['done'])

    const mine = proxy.seen.slice(before)
    expect(mine.filter(e => e.path === '/api/uploads/init')).toHaveLength(1)
    const refreshes = proxy.seen.slice(afterReload).filter(e => /\/refresh$/.test(e.path))
    expect(refreshes.length).toBeGreaterThanOrEqual(1)
    const asked: number[] = JSON.parse(refreshes[0]!.body!).partNumbers
    for (const part of storedBefore) expect(asked).not.toContain(part)
    // Parts stored before the reload were not sent again.
    const putAfter = proxy.seen.slice(afterReload).filter(e => e.method === 'PUT' && e.part !== null).map(e => e.part)
    for (const part of storedBefore) expect(putAfter).not.toContain(part)
    const stored = new Map<number, number>()
    for (const e of storedParts()) stored.set(e.part!, (stored.get(e.part!) ?? 0) + 1)
    for (let part = 1; part <= VIDEO_PARTS; part++) {
      expect(stored.get(part), `part ${part}`).toBe(unanswered.has(part) ? stored.get(part) : 1)
      expect(stored.get(part), `part ${part}`).toBeGreaterThanOrEqual(1)
      expect(stored.get(part), `part ${part}`).toBeLessThanOrEqual(2)
    }

    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Depois do recarregar')
    expect(row).toMatchObject({ status: 'approved', size: VIDEO_SIZE })
    expect(sha256(join(server.mediaDir, row!.storage_key))).toBe(sha256(video))
  })

  it('a failed part is retried on its own, with growing pauses, and the file still arrives whole', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const video = distinctCopy(sharedVideo())
    const page = await openPage()
    const before = proxy.seen.length
    // Part 2: the connection drops once. Part 5: the storage answers 503 twice.
    proxy.failParts([{ part: 2, fail: 'reset', times: 1 }, { part: 5, fail: 503, times: 2 }])
    await page.fill('[name=message]', 'Parte com falha')
    await page.setInputFiles('input[type=file]', [video])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 90_000 })
    proxy.failParts([])

    const puts = proxy.seen.slice(before).filter(e => e.method === 'PUT' && e.part !== null)
    const ofPart = (n: number) => puts.filter(e => e.part === n)
    expect(ofPart(2).map(e => e.injected ?? false)).toEqual([true, false])
    expect(ofPart(5).map(e => e.status)).toEqual([503, 503, 200])
    // Exponential back-off: the second pause is longer than the first (jitter is at most half).
    const [first, second, third] = ofPart(5).map(e => e.at)
    expect(second! - first!).toBeGreaterThanOrEqual(400)
    expect(third! - second!).toBeGreaterThanOrEqual(900)
    // Only the failed parts were sent again.
    for (const n of [1, 3, 4, 6, 7]) expect(ofPart(n).map(e => e.status)).toEqual([200])
    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Parte com falha')
    expect(row).toMatchObject({ status: 'approved', size: VIDEO_SIZE })
    expect(sha256(join(server.mediaDir, row!.storage_key))).toBe(sha256(video))
  })

  it('cancelling a file in flight aborts it on the server and removes the row', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const video = distinctCopy(sharedVideo())
    const page = await openPage()
    const before = proxy.seen.length
    proxy.setThrottle(4 * MiB)
    await page.fill('[name=message]', 'Vou cancelar')
    await page.setInputFiles('input[type=file]', [video])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await until(() => proxy.seen.slice(before).some(e => e.method === 'PUT' && e.status === 200), 60_000, 'a part stored')
    await page.click('[data-testid=upload-cancel]')
    await until(async () => (await rows(page).count()) === 0, 10_000, 'row removed')
    await until(() => proxy.seen.slice(before).some(e => /\/abort$/.test(e.path) && e.status === 200), 10_000, 'abort answered')
    expect((await uploadRows(server.dbPath)).some(r => r.message === 'Vou cancelar')).toBe(false)
    // Nothing comes back after a reload either.
    await page.reload()
    await page.waitForTimeout(1000)
    expect(await rows(page).count()).toBe(0)
  })

  it('a video sent from /enviar carries a poster frame drawn from it, which becomes its gallery thumbnail', async () => {
    const clip = copyClip(dir, 'CLIPE.mp4')
    const page = await openPage()
    const before = proxy.seen.length
    await page.fill('[name=message]', 'Com quadro de capa')
    await page.setInputFiles('input[type=file]', [clip])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Com quadro de capa')!
    expect(row).toMatchObject({ status: 'approved', kind: 'video', size: statSync(clip).size })

    // Asked for and sent after the video's bytes and before its confirm (the server takes it only then).
    const mine = proxy.seen.slice(before)
    const signed = mine.findIndex(e => e.path === `/api/uploads/${row.id}/poster` && e.status === 200)
    const stored = mine.findIndex(e => e.method === 'PUT' && e.path.endsWith('-poster.jpg') && e.status === 200)
    const video = mine.findIndex(e => e.method === 'PUT' && e.path.endsWith(row.storage_key) && e.status === 200)
    const confirmed = mine.findIndex(e => e.path === `/api/uploads/${row.id}/confirm`)
    expect(signed).toBeGreaterThan(video)
    expect(stored).toBeGreaterThan(signed)
    expect(confirmed).toBeGreaterThan(stored)
    const asked = JSON.parse(mine[signed]!.body!)
    expect(asked.contentType).toBe('image/jpeg')

    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === row.id)
    expect(item.kind).toBe('video')
    expect(item.thumbUrl).toMatch(/-poster\.jpg$/)
    const answer = await fetch(item.thumbUrl)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/jpeg')
    const poster = Buffer.from(await answer.arrayBuffer())
    expect(poster.length).toBe(asked.size)
    // The clip's own size (under the 640 px cap), and a frame of it, not a blank canvas: the
    // clip is a colourful test pattern.
    const meta = await sharp(poster).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 240])
    const { channels } = await sharp(poster).stats()
    expect(Math.max(...channels.map(channel => channel.stdev))).toBeGreaterThan(30)
  })

  it('videos recorded with a position leave the phone without it: the public URL serves the same size and the same packets, and no location', async () => {
    const made = makeLocationVideos(dir)
    const picked = [made['moov-last.mp4']!.file, made['apple.mov']!.file]
    for (const file of picked) expect(locationTags(file).length, file).toBeGreaterThan(0)
    const page = await openPage()
    await page.fill('[name=message]', 'Sem lugar')
    await page.setInputFiles('input[type=file]', picked)
    await until(async () => (await rows(page).count()) === 2, 15_000, 'rows')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
    const sent = (await uploadRows(server.dbPath)).filter(r => r.message === 'Sem lugar')
    expect(sent).toHaveLength(2)
    const gallery = (await api(server.url, '/api/gallery?limit=100')).body.items as { id: string, url: string }[]
    for (const file of picked) {
      const row = sent.find(r => r.size === statSync(file).size)!
      const item = gallery.find(i => i.id === row.id)!
      const served = join(dir, `served-${row.id}`)
      writeFileSync(served, Buffer.from(await (await fetch(item.url)).arrayBuffer()))
      expect(statSync(served).size).toBe(statSync(file).size)
      expect(locationTags(served), file).toEqual([])
      expect(packetHashes(served)).toBe(packetHashes(file))
    }
  })

  it('a photo with a GPS position sent from /enviar is public only as images with no metadata at all', async () => {
    const file = join(dir, 'IMG_GPS.jpg')
    writeFileSync(file, await jpegWithGps(320, 240))
    expect((await sharp(file).metadata()).exif).toBeDefined()
    const page = await openPage()
    await page.fill('[name=message]', 'Com GPS')
    await page.setInputFiles('input[type=file]', [file])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Com GPS')!
    // The page made the public images and confirm accepted them: listed the moment the page says done.
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === row.id)
    // jpegWithGps is stored 320 × 240 with EXIF orientation 6: shown 240 × 320.
    expect(item).toMatchObject({ width: 240, height: 320, thumb2xUrl: expect.any(String) })
    const record = await waitForDerived(server.url, server.cookie, row.id)
    expect(record.publicImage).toEqual({ source: 'phone', missing: null, phoneImagesRefusal: null })
    for (const url of [item.url, item.thumbUrl, item.thumb2xUrl]) {
      const meta = await sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).metadata()
      expect([meta.exif, meta.xmp, meta.iptc, meta.icc], url).toEqual([undefined, undefined, undefined, undefined])
      expect([meta.width, meta.height], url).toEqual([240, 320])
    }
  })

  it('a poster frame that cannot be sent does not hold up the video: it arrives without one', async () => {
    const clip = copyClip(dir, 'SEM_CAPA.mp4')
    const page = await openPage()
    // The only interception in these tests: the real server cannot be made to drop exactly this
    // one request, so the browser fails it as a dropped connection would.
    let refused = 0
    await context!.route(url => /^\/api\/uploads\/[^/]+\/poster$/.test(url.pathname), (route) => {
      refused++
      return route.abort('connectionreset')
    })
    await page.fill('[name=message]', 'Capa perdida')
    await page.setInputFiles('input[type=file]', [clip])
    await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    expect(refused).toBe(1)
    expect(await states(page)).toEqual(['done'])
    const row = (await uploadRows(server.dbPath)).find(r => r.message === 'Capa perdida')!
    expect(row).toMatchObject({ status: 'approved', kind: 'video' })
    const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: { id: string }) => i.id === row.id)
    expect(item.thumbUrl).toBeNull()
  })

  it('refuses, in words and before sending, a video above the duration limit and a file above the size limit', async () => {
    await setEvent({ maxVideoDurationSec: 1, maxFileSizeBytes: MiB })
    try {
      const big = await noisyJpeg(dir, 'GRANDE.jpg', 2 * MiB)
      const clip = copyClip(dir, 'CURTO.mp4')
      const page = await openPage()
      const before = proxy.seen.length
      await page.setInputFiles('input[type=file]', [big, clip, photo1])
      const refusals = page.locator('[data-testid=upload-refusal]')
      await until(async () => (await refusals.count()) === 2, 15_000, 'two refusals')
      const bigText = await refusals.filter({ hasText: 'GRANDE.jpg' }).textContent()
      const clipText = await refusals.filter({ hasText: 'CURTO.mp4' }).textContent()
      expect(bigText).toMatch(/grande demais/)
      expect(bigText).toContain('O limite é 1 MB')
      expect(clipText).toMatch(/longo demais \(2 segundos\)/)
      expect(clipText).toContain('O limite é 1 segundo')
      // Neither refused file reaches the server; the acceptable photo goes by itself (its bytes
      // were sent by the first test: the server answers "already in the gallery").
      await until(async () => ['done', 'duplicate'].includes((await states(page))[0]!), 30_000, 'the photo sent')
      expect(proxy.seen.slice(before).filter(e => e.path === '/api/uploads/init')).toHaveLength(1)
      await screenshot(page, 'enviar-phone-refused')
      await expectAccessible(page, '/enviar refusing files, on a phone')

      await setEvent({ allowVideos: false })
      await page.reload()
      await expect(page.getAttribute('input[type=file]', 'accept')).resolves.toBe('image/*')
      await page.setInputFiles('input[type=file]', [clip])
      await until(async () => (await refusals.count()) === 1, 15_000, 'refusal')
      await expect(refusals.textContent()).resolves.toMatch(/não estamos recebendo vídeos/)
    }
    finally {
      await setEvent({ maxVideoDurationSec: 300, maxFileSizeBytes: 524288000, allowVideos: true })
    }
  })

  it('desktop: home with its cover, and /enviar during and after an upload', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const [photo1, video] = [distinctCopy(sharedPhoto1()), distinctCopy(sharedVideo())]
    context = await pages.context('desktop', { baseURL: proxy.url })
    const page = await context.newPage()
    await page.goto('/')
    await page.locator('[data-testid=cover]').waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid=cover]') as HTMLImageElement).complete)
    await screenshot(page, 'home-desktop')
    await expectAccessible(page, 'the home page, desktop')
    await page.click('text=Enviar fotos e vídeos')
    await page.locator('main[data-ready]').waitFor()
    await screenshot(page, 'enviar-desktop-empty')
    await expectAccessible(page, '/enviar, empty, desktop')
    proxy.setThrottle(8 * MiB)
    await page.setInputFiles('input[type=file]', [photo1, video])
    await until(async () => (await page.locator('[data-testid=upload-item] img').count()) === 2, 15_000, 'thumbnails')
    await until(async () => Number(await rows(page).nth(1).locator('[data-progress]').getAttribute('data-progress')) > 30, 30_000, 'video on its way')
    await screenshot(page, 'enviar-desktop-uploading')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
    await screenshot(page, 'enviar-desktop-done')
    await expectAccessible(page, '/enviar, all sent, desktop')
  })

  it('under pre-moderation says that photos appear after approval', async () => {
    // Bytes of its own: the same bytes sent by an earlier test would be answered "already sent".
    const photo2 = distinctCopy(sharedPhoto2())
    await setEvent({ moderation: 'pre' })
    try {
      const page = await openPage()
      await page.setInputFiles('input[type=file]', [photo2])
      await until(async () => (await rows(page).count()) === 1, 15_000, 'row')
      await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
      await expect(page.locator('[data-testid=upload-after-approval]').textContent()).resolves.toMatch(/depois que os noivos aprovarem/)
      const rowsNow = await uploadRows(server.dbPath)
      expect(rowsNow.at(-1)).toMatchObject({ status: 'pending', file_name: 'IMG_0002.jpg' })
      expect(rowsNow.at(-1)!.confirmed_at).not.toBeNull()
    }
    finally {
      await setEvent({ moderation: 'post' })
    }
  })

  it('a picked file is confirmed with no further tap, with the remembered name; words typed later reach the files on the page', async () => {
    const picked = distinctCopy(sharedPhoto2())
    const page = await openPage()
    // The name remembered from an earlier visit goes with the file.
    await page.evaluate(() => localStorage.setItem('event-media:author', 'Vó Nina'))
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    expect(await page.inputValue('[name=author]')).toBe('Vó Nina')
    const knownIds = new Set((await uploadRows(server.dbPath)).map(row => row.id))
    await page.setInputFiles('input[type=file]', [picked])
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    expect(await page.locator('[data-testid=send]').count()).toBe(0)
    const sent = (await uploadRows(server.dbPath)).find(row => !knownIds.has(row.id))!
    expect(sent).toMatchObject({ author: 'Vó Nina', message: '', file_name: 'IMG_0002.jpg' })
    expect(sent.confirmed_at).not.toBeNull()

    // Typed after the photo was confirmed: it still reaches it (the device's edit, within its window).
    await page.fill('[name=message]', 'Escrito depois')
    const messageOf = async (id: string) => (await uploadRows(server.dbPath)).find(row => row.id === id)?.message
    await expect.poll(() => messageOf(sent.id), { timeout: 10_000 }).toBe('Escrito depois')

    // Typed while a video is on its way: it reaches the video, and not the photo no longer on the page.
    await page.getByRole('button', { name: 'Enviar mais' }).click()
    proxy.setThrottle(20 * MiB)
    const clip = distinctCopy(sharedVideo())
    await page.setInputFiles('input[type=file]', [clip])
    await until(async () => (await states(page))[0] === 'uploading', 15_000, 'video on its way')
    await page.fill('[name=message]', 'Durante o envio')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
    const video = (await uploadRows(server.dbPath)).find(row => !knownIds.has(row.id) && row.id !== sent.id)!
    await expect.poll(() => messageOf(video.id), { timeout: 10_000 }).toBe('Durante o envio')
    expect(await messageOf(sent.id)).toBe('Escrito depois')
  })

  it('a file picked before the page is ready to listen is sent once it is, never dropped', async () => {
    const picked = distinctCopy(sharedPhoto1())
    context = await pages.context('phone', { baseURL: proxy.url })
    const page = await context.newPage()
    // The page's scripts held back: the server-rendered picker shows, nothing answers it yet.
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(url => url.pathname.startsWith('/_nuxt/') && url.pathname.endsWith('.js'), async (route) => {
      await released
      await route.continue()
    })
    await page.goto('/enviar', { waitUntil: 'commit' })
    await page.locator('input[type=file]').waitFor({ state: 'attached' })
    await page.setInputFiles('input[type=file]', [picked])
    expect(await page.locator('main[data-ready]').count()).toBe(0)
    release()
    await page.locator('main[data-ready]').waitFor()
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    expect(await states(page)).toEqual(['done'])
  })

  it('says so when no byte has moved for 10 s while online (data-state=stalled), and carries on when bytes flow again', async () => {
    const clip = distinctCopy(sharedVideo())
    const page = await openPage()
    proxy.setThrottle(8 * MiB)
    await page.setInputFiles('input[type=file]', [clip])
    const summary = page.locator('[data-testid=upload-summary]')
    await until(async () => (await summary.getAttribute('data-state')) === 'sending' && Number(await summary.getAttribute('data-percent')) >= 5, 60_000, 'bytes moving')
    // The storage accepts the connection and takes no more bytes.
    proxy.hold(true)
    const heldAt = Date.now()
    await until(async () => (await summary.getAttribute('data-state')) === 'stalled', 30_000, 'stalled')
    expect(Date.now() - heldAt).toBeGreaterThanOrEqual(9_000)
    expect(await summary.locator('.upload-summary__headline').textContent()).toContain('Sem resposta do servidor · tentando de novo')
    await screenshot(page, 'enviar-phone-stalled')
    proxy.hold(false)
    await until(async () => (await summary.getAttribute('data-state')) !== 'stalled', 30_000, 'moving again')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 120_000 })
    expect(await summary.getAttribute('data-state')).toBe('done')
  })

  it('a reload with the network gone shows what storage really holds: the sent photo done with its thumbnail, the video\'s stored parts counted', async () => {
    const [picture, clip] = [distinctCopy(sharedPhoto1()), distinctCopy(sharedVideo())]
    const page = await openPage()
    const before = proxy.seen.length
    const storedParts = () => new Set(proxy.seen.slice(before).filter(e => e.method === 'PUT' && e.part !== null && e.status === 200).map(e => e.part!))
    proxy.setThrottle(6 * MiB)
    await page.setInputFiles('input[type=file]', [picture, clip])
    await until(async () => (await states(page))[0] === 'done', 30_000, 'the photo sent')
    await until(() => storedParts().size >= 2, 60_000, 'two parts stored')
    // Nothing more reaches storage from here; the page reloads and then loses the network.
    proxy.hold(true)
    await page.waitForTimeout(300)
    const stored = storedParts()
    // The page writes each part down once storage's answer reaches it. Up to three parts go side
    // by side and often end together, so storage may have answered several the page has not yet
    // written (under load, the last CI counted 3 stored and 1 written 300 ms on): the reload waits
    // until the queue's record holds every part storage acknowledged, and the page must then count them all.
    await until(async () => (await recordedParts(page)).length === stored.size, 15_000, 'the stored parts written down by the page')
    expect(new Set(await recordedParts(page))).toEqual(stored)
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    await context!.setOffline(true)
    await until(async () => (await rows(page).count()) === 2, 15_000, 'rows restored')
    await until(async () => (await page.locator('[data-testid=upload-item] img').count()) === 2, 15_000, 'thumbnails kept')
    const [photoState, videoState] = await states(page)
    expect(photoState).toBe('done')
    expect(['paused', 'queued']).toContain(videoState)
    // Every part storage acknowledged counts, never "0 %".
    const videoRow = rows(page).nth(1)
    const heard = stored.size * 10 * MiB
    const videoPercent = Number(await videoRow.locator('[data-progress]').getAttribute('data-progress'))
    expect(videoPercent).toBeGreaterThanOrEqual(Math.floor(heard / VIDEO_SIZE * 100))
    expect(videoPercent).toBeGreaterThan(0)
    const summary = page.locator('[data-testid=upload-summary]')
    const pictureSize = statSync(picture).size
    expect(Number(await summary.getAttribute('data-percent'))).toBeGreaterThanOrEqual(Math.floor((pictureSize + heard) / (pictureSize + VIDEO_SIZE) * 100))
    expect(await summary.getAttribute('data-done')).toBe('1')
    await screenshot(page, 'enviar-phone-offline-reload')
    await context!.setOffline(false)
    proxy.hold(false)
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 90_000 })
  })
})
