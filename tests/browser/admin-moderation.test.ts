import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, seedPhoto, seedVideo, setModeration, waitForDerived } from '../support/seed'
import { uploadFile } from '../support/uploads'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

/** Longer than one refresh of the dashboard (5 s), with room for a busy machine. */
const REFRESH_WAIT = 15_000

describe('admin moderation (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let watched: WatchedPage
  let page: Page

  const card = (id: string) => page.locator(`[data-testid=admin-upload][data-id="${id}"]`)
  const galleryIds = async () => (await api(server.url, '/api/gallery?limit=100')).body.items.map((item: any) => item.id)
  const statusOf = async (id: string) => (await adminRecord(server.url, server.cookie, id)).body.status

  beforeAll(async () => {
    await setModeration(server.url, server.cookie, 'pre')
    watched = await pages.watched()
    page = watched.page
    await page.goto('/admin/login')
    await loginThroughForm(page)
    await page.waitForURL(url => url.pathname === '/admin')
  })

  /** The pending queue, as an admin opens it. */
  async function showQueue(query = '') {
    await page.goto(`/admin${query}`)
    await page.locator('[data-testid=admin-uploads]').waitFor({ state: 'attached' })
  }

  it('a guest upload shows up in the pending queue by itself, without a reload', async () => {
    await showQueue()
    await page.locator('[data-testid=list-empty]').waitFor()
    // A marker on the window survives only if the page is never reloaded.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))

    const upload = await seedPhoto(server.url, { author: 'Tia Cida', message: 'Que noite linda!' })
    expect(upload.status).toBe('pending')
    await card(upload.id).waitFor({ timeout: REFRESH_WAIT })
    expect(await card(upload.id).getAttribute('data-status')).toBe('pending')
    expect(await card(upload.id).locator('[data-testid=author]').textContent()).toContain('Tia Cida')
    expect(await card(upload.id).locator('[data-testid=message]').textContent()).toContain('Que noite linda!')
    expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true)
    // The pending count in the header follows too.
    await page.locator('[data-testid=pending-count]', { hasText: '1' }).waitFor({ timeout: REFRESH_WAIT })
  })

  it('a hidden tab stops asking the server, and catches up as soon as it is shown again', async () => {
    // The page's own clock (its timers, not the wall's): seven seconds of a hidden tab pass at once.
    // Installed before the queue loads, so the polling runs on it; it keeps running at real speed.
    await page.clock.install()
    await showQueue()
    const calls: string[] = []
    const count = (request: { url: () => string }) => {
      const path = new URL(request.url()).pathname
      if (path === '/api/admin/uploads' || path === '/api/admin/stats') calls.push(path)
    }
    const setVisibility = (state: 'hidden' | 'visible') => page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value })
      document.dispatchEvent(new Event('visibilitychange'))
    }, state)
    page.on('request', count)
    try {
      await setVisibility('hidden')
      await page.waitForTimeout(100)
      calls.length = 0
      const upload = await seedPhoto(server.url, { author: 'Enquanto escondida' })
      await page.clock.runFor(7000)
      // A request a timer started reaches the test a moment after runFor returns.
      await page.waitForTimeout(300)
      expect(calls).toEqual([])
      expect(await card(upload.id).count()).toBe(0)

      await setVisibility('visible')
      await card(upload.id).waitFor({ timeout: 2000 })
      expect(calls).toContain('/api/admin/uploads')
    }
    finally {
      page.off('request', count)
    }
  })

  it('approving takes an upload out of the queue and into the public gallery', async () => {
    const upload = await seedPhoto(server.url, { author: 'Aprovada' })
    await showQueue()
    await card(upload.id).locator('[data-testid=approve]').click()
    await card(upload.id).waitFor({ state: 'detached' })
    await expect.poll(() => statusOf(upload.id)).toBe('approved')
    expect(await galleryIds()).toContain(upload.id)
  })

  it('rejecting takes an upload out of the queue and keeps it out of the gallery', async () => {
    const upload = await seedPhoto(server.url, { author: 'Recusada' })
    await showQueue()
    await card(upload.id).locator('[data-testid=reject]').click()
    await card(upload.id).waitFor({ state: 'detached' })
    await expect.poll(() => statusOf(upload.id)).toBe('rejected')
    expect(await galleryIds()).not.toContain(upload.id)
    // Still there for the admin, under "Recusados".
    await page.locator('[data-testid=status-rejected]').click()
    await page.waitForURL(url => url.searchParams.get('status') === 'rejected')
    await card(upload.id).waitFor()
    expect(await card(upload.id).getAttribute('data-status')).toBe('rejected')
  })

  it('bulk approve publishes three selected uploads at once', async () => {
    const three = [await seedPhoto(server.url, { author: 'Um' }), await seedPhoto(server.url, { author: 'Dois' }), await seedVideo(server.url, { author: 'Três' })]
    const other = await seedPhoto(server.url, { author: 'Fica pendente' })
    await showQueue()
    for (const upload of three) await card(upload.id).locator('[data-testid=select]').check()
    expect(await page.locator('[data-testid=bulk-bar]').textContent()).toContain('3 selecionados')
    // The cards leave at the click (an optimistic change), before the server has answered: the
    // statuses are read once its answer is in.
    const answered = page.waitForResponse(response => new URL(response.url()).pathname === '/api/admin/uploads/bulk')
    await page.locator('[data-testid=bulk-approve]').click()
    for (const upload of three) await card(upload.id).waitFor({ state: 'detached' })
    expect((await answered).status()).toBe(200)
    await card(other.id).waitFor()
    const gallery = await galleryIds()
    for (const upload of three) {
      expect(await statusOf(upload.id)).toBe('approved')
      expect(gallery).toContain(upload.id)
    }
    expect(gallery).not.toContain(other.id)
    // The bulk actions leave with the selection (their place is kept, so the grid does not move).
    expect(await page.locator('[data-testid=bulk-approve]').isVisible()).toBe(false)
  })

  it('bulk reject and bulk delete act on the selection, "select all" selects the whole page', async () => {
    await showQueue()
    const [a, b] = [await seedPhoto(server.url, { author: 'Lote A' }), await seedPhoto(server.url, { author: 'Lote B' })]
    await card(b.id).waitFor({ timeout: REFRESH_WAIT })
    await card(a.id).waitFor()
    await card(a.id).locator('[data-testid=select]').check()
    await card(b.id).locator('[data-testid=select]').check()
    await page.locator('[data-testid=bulk-reject]').click()
    await card(a.id).waitFor({ state: 'detached' })
    await card(b.id).waitFor({ state: 'detached' })
    await expect.poll(async () => [await statusOf(a.id), await statusOf(b.id)]).toEqual(['rejected', 'rejected'])

    await showQueue('?status=rejected')
    await page.locator('[data-testid=select-all]').check()
    const selected = await page.locator('[data-testid=admin-upload]').count()
    expect(await page.locator('[data-testid=bulk-bar]').textContent()).toContain(`${selected} selecionado`)
    await page.locator('[data-testid=bulk-delete]').click()
    await page.locator('[data-testid=confirm-dialog]').locator('[data-testid=confirm]').click()
    await page.locator('[data-testid=list-empty]').waitFor()
    for (const { id } of [a, b]) await expect.poll(async () => (await adminRecord(server.url, server.cookie, id)).status).toBe(404)
  })

  it('delete asks first, and only a confirmed delete removes the upload', async () => {
    const upload = await seedPhoto(server.url, { author: 'Apagar' })
    await showQueue()
    await card(upload.id).locator('[data-testid=delete]').click()
    const dialog = page.locator('[data-testid=confirm-dialog]')
    await dialog.waitFor({ state: 'visible' })
    await dialog.locator('[data-testid=confirm-cancel]').click()
    await dialog.waitFor({ state: 'hidden' })
    expect(await card(upload.id).count()).toBe(1)

    await card(upload.id).locator('[data-testid=delete]').click()
    await dialog.locator('[data-testid=confirm]').click()
    await card(upload.id).waitFor({ state: 'detached' })
    await expect.poll(async () => (await adminRecord(server.url, server.cookie, upload.id)).status).toBe(404)
  })

  it('author and message edited inline show in the public gallery', async () => {
    const upload = await seedPhoto(server.url, { author: 'mARIA', message: 'parabens' })
    await api(server.url, `/api/admin/uploads/${upload.id}/approve`, { method: 'POST', cookie: server.cookie })
    await showQueue('?status=approved')
    const row = card(upload.id)
    await row.locator('[data-testid=edit]').click()
    await row.locator('[data-testid=edit-author]').fill('Maria Souza')
    await row.locator('[data-testid=edit-message]').fill('Parabéns aos noivos!\nCom carinho.')
    await row.locator('[data-testid=save-edit]').click()
    await row.locator('[data-testid=author]').filter({ hasText: 'Maria Souza' }).waitFor()
    await expect.poll(async () => {
      const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((i: any) => i.id === upload.id)
      return item && { author: item.author, message: item.message }
    }).toEqual({ author: 'Maria Souza', message: 'Parabéns aos noivos!\nCom carinho.' })
  })

  it('set as cover shows in GET /api/event, and the event tab can clear it', async () => {
    const upload = await seedPhoto(server.url, { author: 'Capa' })
    await api(server.url, `/api/admin/uploads/${upload.id}/approve`, { method: 'POST', cookie: server.cookie })
    await waitForDerived(server.url, server.cookie, upload.id)
    await showQueue('?status=approved')
    await card(upload.id).locator('[data-testid=set-cover]').click()
    await card(upload.id).locator('[data-testid=is-cover]').waitFor()
    await expect.poll(async () => (await api(server.url, '/api/event')).body.cover?.id).toBe(upload.id)

    await page.locator('[data-testid=tab-evento]').click()
    const image = page.locator('[data-testid=cover-image]')
    await image.waitFor()
    expect(await image.getAttribute('data-id')).toBe(upload.id)
    // The picture really loads under the page's CSP.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await page.locator('[data-testid=clear-cover]').click()
    await image.waitFor({ state: 'detached' })
    expect((await api(server.url, '/api/event')).body.cover).toBeNull()
  })

  it('a pending upload cannot be offered as the cover', async () => {
    const upload = await seedPhoto(server.url, { author: 'Pendente' })
    await showQueue()
    expect(await card(upload.id).locator('[data-testid=set-cover]').isDisabled()).toBe(true)
    await card(upload.id).locator('[data-testid=reject]').click()
    await card(upload.id).waitFor({ state: 'detached' })
  })

  it('on a laptop, j/k move between uploads and a / r approve or reject the focused one', async () => {
    const older = await seedPhoto(server.url, { author: 'Teclado 1' })
    const newer = await seedPhoto(server.url, { author: 'Teclado 2' })
    await showQueue()
    await card(newer.id).waitFor()
    await page.keyboard.press('j')
    expect(await card(newer.id).evaluate(el => el === document.activeElement)).toBe(true)
    await page.keyboard.press('j')
    expect(await card(older.id).evaluate(el => el === document.activeElement)).toBe(true)
    await page.keyboard.press('k')
    expect(await card(newer.id).evaluate(el => el === document.activeElement)).toBe(true)

    await page.keyboard.press('a')
    await card(newer.id).waitFor({ state: 'detached' })
    // The focus moves on to the next upload, ready for the next key.
    expect(await card(older.id).evaluate(el => el === document.activeElement)).toBe(true)
    await page.keyboard.press('r')
    await card(older.id).waitFor({ state: 'detached' })
    await expect.poll(() => statusOf(newer.id)).toBe('approved')
    await expect.poll(() => statusOf(older.id)).toBe('rejected')
  })

  it('a refused action is rolled back on screen, with a message', async () => {
    const upload = await seedPhoto(server.url, { author: 'Volta' })
    await showQueue()
    await page.route('**/api/admin/uploads/*/approve', route => route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 503, statusMessage: 'Storage unavailable', data: { code: 'STORAGE_UNAVAILABLE' } }),
    }))
    try {
      await card(upload.id).locator('[data-testid=approve]').click()
      const toast = page.locator('[data-testid=toast-error]')
      await toast.waitFor()
      expect(await toast.textContent()).toContain('Não foi possível aprovar: O armazenamento de arquivos está fora do ar.')
      await card(upload.id).waitFor()
      expect(await card(upload.id).getAttribute('data-status')).toBe('pending')
      expect(await statusOf(upload.id)).toBe('pending')
    }
    finally {
      await page.unroute('**/api/admin/uploads/*/approve')
    }
  })

  it('search and kind filters narrow the list, and "load more" pages with the cursor', async () => {
    for (let i = 0; i < 25; i++) await seedPhoto(server.url, { author: `Lote ${i}` })
    const video = await seedVideo(server.url, { author: 'Lote vídeo', message: 'valsa' })
    await showQueue()
    // 24 a page: the rest comes with "load more".
    await expect.poll(() => page.locator('[data-testid=admin-upload]').count()).toBe(24)
    await page.locator('[data-testid=admin-load-more]').click()
    await expect.poll(() => page.locator('[data-testid=admin-upload]').count()).toBeGreaterThanOrEqual(26)
    expect(await page.locator('[data-testid=admin-load-more]').count()).toBe(0)

    await page.locator('[data-testid=filter-kind]').selectOption('video')
    await page.waitForURL(url => url.searchParams.get('tipo') === 'video')
    await expect.poll(async () => page.locator('[data-testid=admin-upload]').evaluateAll(els => els.map(el => el.getAttribute('data-kind')))).toEqual(['video'])
    await page.locator('[data-testid=filter-kind]').selectOption('all')

    await page.locator('[data-testid=search]').fill('VALSA')
    await page.waitForURL(url => url.searchParams.get('q') === 'VALSA')
    await expect.poll(async () => page.locator('[data-testid=admin-upload]').evaluateAll(els => els.map(el => el.getAttribute('data-id')))).toEqual([video.id])
  })

  it('the preview plays a video from its original', async () => {
    // A real, playable WebM made by this very browser: a canvas recorded for a second.
    const base64 = await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 160, height: 120 })
      const context = canvas.getContext('2d')!
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' })
      const chunks: Blob[] = []
      recorder.ondataavailable = event => chunks.push(event.data)
      const stopped = new Promise(resolve => (recorder.onstop = resolve))
      recorder.start()
      const started = performance.now()
      while (performance.now() - started < 1200) {
        context.fillStyle = `hsl(${(performance.now() - started) / 4}, 70%, 50%)`
        context.fillRect(0, 0, 160, 120)
        await new Promise(resolve => setTimeout(resolve, 40))
      }
      recorder.stop()
      await stopped
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer())
      let binary = ''
      for (const byte of bytes) binary += String.fromCharCode(byte)
      return btoa(binary)
    })
    const bytes = Buffer.from(base64, 'base64')
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'video/webm', size: bytes.length, durationSec: 1.2, author: 'Filme', fileName: 'valsa.webm' })
    expect(confirm.status).toBe(200)

    await showQueue('?tipo=video')
    await card(init.id).locator('[data-testid=preview]').click()
    const player = page.locator('[data-testid=preview-dialog] video[data-testid=preview-video]')
    await player.waitFor()
    const record = (await adminRecord(server.url, server.cookie, init.id)).body
    expect(await player.getAttribute('src')).toBe(record.originalUrl)
    expect(await player.evaluate((v: HTMLVideoElement) => v.controls)).toBe(true)
    // It really plays: the media loads under the page's CSP and time moves on.
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = true
      return v.play()
    })
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.1)
    await page.keyboard.press('Escape')
    await player.waitFor({ state: 'detached' })
  })
})
