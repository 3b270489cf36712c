import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm, VIEWPORTS } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { guestUpload, type GuestUpload } from '../support/guests'
import { setModeration } from '../support/seed'
import { useBrowser } from './support/fixture'
import type { WatchedPage } from '../support/watch-page'

/** Longer than one refresh of the lists and the header's counts (5 s), with room for a busy machine. */
const REFRESH_WAIT = 30_000

/**
 * The couple moderates guests' comments on a tablet (768×1024) in the Comentários tab, on the
 * guestbook's machinery: an approval reaches the gallery's comments, a rejection keeps one out, a
 * bulk approval takes the selection; and the photos' list sorts by hearts, most hearted first,
 * staying in that order as hearts arrive. Real server, real browser; the guests are API calls.
 */
describe('the admin\'s comments tab and the hearts order on a tablet', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let admin: WatchedPage
  /** Sent oldest first: `few` gets 1 heart, `many` 3, `none` none. */
  let many: GuestUpload
  let few: GuestUpload
  let none: GuestUpload
  const comment: Record<'approve' | 'reject' | 'bulkA' | 'bulkB', string> = { approve: '', reject: '', bulkA: '', bulkB: '' }

  /** A heart from a new guest device (no cookie: the server gives it one). */
  const heartFromNewDevice = async (id: string) => expect((await api(server.url, `/api/gallery/${id}/heart`, { method: 'POST' })).status).toBe(200)
  const postComment = async (id: string, author: string, text: string) => {
    const sent = await api(server.url, `/api/gallery/${id}/comments`, { method: 'POST', json: { author, text } })
    expect(sent.status).toBe(201)
    expect(sent.body.status).toBe('pending')
    return sent.body.id as string
  }
  const galleryComments = async (id: string) => (await api(server.url, `/api/gallery/${id}/comments`)).body
  const commentStatus = async (id: string) =>
    (await api(server.url, '/api/admin/comments?status=all&limit=200', { cookie: server.cookie })).body.items.find((item: { id: string }) => item.id === id)?.status

  beforeAll(async () => {
    await setModeration(server.url, server.cookie, 'post')
    many = await guestUpload(server.url, server.cookie, 1, { author: 'Tia Rosa' })
    few = await guestUpload(server.url, server.cookie, 2, { author: 'Primo Léo' })
    none = await guestUpload(server.url, server.cookie, 3, { author: 'Vó Dita' })
    for (let i = 0; i < 3; i++) await heartFromNewDevice(many.id)
    await heartFromNewDevice(few.id)

    await setModeration(server.url, server.cookie, 'pre')
    comment.approve = await postComment(none.id, 'Carla', 'Que foto linda!')
    comment.reject = await postComment(many.id, 'Anônimo', 'Comentário que não deve aparecer')
    comment.bulkA = await postComment(few.id, 'Duda', 'Primeiro do lote')
    comment.bulkB = await postComment(few.id, 'Enzo', 'Segundo do lote')

    admin = await pages.watched(VIEWPORTS.tablet)
    await admin.page.goto('/admin/login')
    await loginThroughForm(admin.page)
    await admin.page.waitForURL(url => url.pathname === '/admin')
  })

  it('the header counts the pending comments in their tab\'s badge and in the browser tab\'s title', async () => {
    const page = admin.page
    await page.locator('[data-testid=tab-comentarios]').click()
    await page.waitForURL(url => url.searchParams.get('aba') === 'comentarios')
    await expect.poll(() => page.locator('[data-testid=comentarios-pending-count]').textContent(), { timeout: REFRESH_WAIT }).toBe('4')
    // Nothing else waits: the title's count is the comments'.
    await expect.poll(() => page.title(), { timeout: REFRESH_WAIT }).toBe('(4) Comentários · Fotos do casamento')
    await page.locator('[data-testid=admin-comments]').waitFor()
    expect(await page.locator('[data-testid=comments-status-pending]').getAttribute('aria-pressed')).toBe('true')
    const cards = page.locator('[data-testid=admin-comment-item]')
    await expect.poll(() => cards.count(), { timeout: REFRESH_WAIT }).toBe(4)
    // Newest first, as the API lists them.
    expect(await cards.evaluateAll(all => all.map(card => card.getAttribute('data-id')))).toEqual([comment.bulkB, comment.bulkA, comment.reject, comment.approve])
  })

  it('shows who wrote what under which photo, and an approval reaches the gallery\'s comments', async () => {
    const page = admin.page
    const card = page.locator(`[data-testid=admin-comment-item][data-id="${comment.approve}"]`)
    expect(await card.getAttribute('data-upload-id')).toBe(none.id)
    expect(await card.getAttribute('data-status')).toBe('pending')
    expect((await card.locator('.author').textContent())!.trim()).toBe('Carla')
    expect((await card.locator('.text').textContent())!.trim()).toBe('Que foto linda!')
    // The photo's thumbnail, loaded for real from the server.
    const thumb = card.locator('[data-testid=comment-photo] img')
    expect(await thumb.getAttribute('alt')).toBe('A foto que Carla comentou (abre em outra aba)')
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true)

    await card.locator('[data-testid=approve]').click()
    // It leaves the pending list, and the guests see it.
    await card.waitFor({ state: 'detached', timeout: REFRESH_WAIT })
    expect(await commentStatus(comment.approve)).toBe('approved')
    const shown = await galleryComments(none.id)
    expect(shown.items).toEqual([{ id: comment.approve, author: 'Carla', text: 'Que foto linda!', createdAt: expect.any(String) }])
    await expect.poll(() => page.locator('[data-testid=comentarios-pending-count]').textContent(), { timeout: REFRESH_WAIT }).toBe('3')
    await expect.poll(() => page.title(), { timeout: REFRESH_WAIT }).toBe('(3) Comentários · Fotos do casamento')
  })

  it('a rejection keeps a comment out of the gallery and files it under Recusados', async () => {
    const page = admin.page
    const card = page.locator(`[data-testid=admin-comment-item][data-id="${comment.reject}"]`)
    await card.locator('[data-testid=reject]').click()
    await card.waitFor({ state: 'detached', timeout: REFRESH_WAIT })
    expect(await commentStatus(comment.reject)).toBe('rejected')
    expect((await galleryComments(many.id)).items).toEqual([])

    await page.locator('[data-testid=comments-status-rejected]').click()
    const rejected = page.locator('[data-testid=admin-comment-item]')
    await expect.poll(() => rejected.evaluateAll(all => all.map(card => [card.getAttribute('data-id'), card.getAttribute('data-status')])), { timeout: REFRESH_WAIT })
      .toEqual([[comment.reject, 'rejected']])
    await page.locator('[data-testid=comments-status-pending]').click()
    await expect.poll(() => page.locator('[data-testid=admin-comment-item]').count(), { timeout: REFRESH_WAIT }).toBe(2)
  })

  it('a bulk approval takes every selected comment, and the gallery lists them oldest first', async () => {
    const page = admin.page
    await page.locator('[data-testid=select-all]').check()
    await page.locator('[data-testid=bulk-approve]').click()
    await expect.poll(() => page.locator('[data-testid=admin-comment-item]').count(), { timeout: REFRESH_WAIT }).toBe(0)
    expect(await commentStatus(comment.bulkA)).toBe('approved')
    expect(await commentStatus(comment.bulkB)).toBe('approved')
    const shown = await galleryComments(few.id)
    expect(shown.items.map((item: { id: string, author: string }) => [item.id, item.author])).toEqual([[comment.bulkA, 'Duda'], [comment.bulkB, 'Enzo']])
    // The tab's badge follows the admin's stats, asked again after the action.
    await expect.poll(() => page.locator('[data-testid=comentarios-pending-count]').count(), { timeout: REFRESH_WAIT }).toBe(0)
    await expect.poll(() => page.title(), { timeout: REFRESH_WAIT }).toBe('Comentários · Fotos do casamento')
  })

  it('the photos\' list sorts most hearted first, in the address, and keeps that order as hearts arrive', async () => {
    const page = admin.page
    await page.locator('[data-testid=tab-moderacao]').click()
    await page.locator('[data-testid=status-pending]').waitFor()
    // Pending uploads cannot be hearted: their queue offers no order.
    expect(await page.locator('[data-testid=filter-sort]').count()).toBe(0)
    await page.locator('[data-testid=status-approved]').click()
    const order = () => page.locator('[data-testid=admin-upload]').evaluateAll(all => all.map(card => card.getAttribute('data-id')))
    // Newest first until told otherwise.
    await expect.poll(order, { timeout: REFRESH_WAIT }).toEqual([none.id, few.id, many.id])

    await page.locator('[data-testid=filter-sort]').selectOption('hearts')
    await page.waitForURL(url => url.searchParams.get('ordem') === 'hearts')
    await expect.poll(order, { timeout: REFRESH_WAIT }).toEqual([many.id, few.id, none.id])
    expect(await page.locator(`[data-testid=admin-upload][data-id="${many.id}"] [data-testid=upload-reactions]`).textContent()).toContain('3 corações')

    // Hearts arrive while the list is open: the live refresh merges by hearts, not by time.
    for (let i = 0; i < 4; i++) await heartFromNewDevice(none.id)
    await expect.poll(order, { timeout: REFRESH_WAIT }).toEqual([none.id, many.id, few.id])

    // A reload keeps the order (it is in the address).
    await page.reload()
    await expect.poll(order, { timeout: REFRESH_WAIT }).toEqual([none.id, many.id, few.id])
    expect(await page.locator('[data-testid=filter-sort]').inputValue()).toBe('hearts')

    // The preview says them too: `few` has one heart and the two comments approved in bulk above,
    // `none` the four hearts just sent and the comment approved on its own.
    const preview = page.locator('[data-testid=preview-dialog][open]')
    await page.locator(`[data-testid=admin-upload][data-id="${few.id}"] [data-testid=preview]`).click()
    await preview.waitFor()
    expect(await preview.locator('[data-testid=preview-reactions]').textContent()).toBe('1 coração · 2 comentários')
    await preview.locator('[data-testid=preview-close]').click()
    await preview.waitFor({ state: 'detached' })
    await page.locator(`[data-testid=admin-upload][data-id="${none.id}"] [data-testid=preview]`).click()
    await preview.waitFor()
    expect(await preview.locator('[data-testid=preview-reactions]').textContent()).toBe('4 corações · 1 comentário')
    await preview.locator('[data-testid=preview-close]').click()
  })
})
