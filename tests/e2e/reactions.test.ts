import { describe, expect, it, onTestFinished } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, setModeration } from '../support/seed'
import { unzip } from '../support/zip'
import { csvCell } from '../../server/utils/archive/csv'
import { AUTHOR_MAX_LENGTH, GUESTBOOK_TEXT_MAX_LENGTH } from '../../shared/limits'

const RATE_LIMIT = 30
const UNDO_WINDOW_SECONDS = 2

/** A guest device: the em_guest cookie it was given, sent back as a browser would. */
class Device {
  cookie = ''
  constructor(private readonly base: string, private readonly address: string) {}

  async call(path: string, init: Parameters<typeof api>[2] = {}) {
    const headers = new Headers(init.headers)
    headers.set('x-forwarded-for', this.address)
    const response = await api(this.base, path, { ...init, headers, cookie: this.cookie || undefined })
    const set = response.headers.get('set-cookie')
    if (set?.startsWith('em_guest=')) this.cookie = set.split(';')[0]!
    return response
  }

  heart = (id: string) => this.call(`/api/gallery/${id}/heart`, { method: 'POST' })
  unheart = (id: string) => this.call(`/api/gallery/${id}/heart`, { method: 'DELETE' })
  hearted = () => this.call('/api/gallery/hearted')
  comment = (id: string, body: Record<string, unknown>) => this.call(`/api/gallery/${id}/comments`, { method: 'POST', json: body })
  undo = (id: string, commentId: string, token?: string) =>
    this.call(`/api/gallery/${id}/comments/${commentId}`, { method: 'DELETE', headers: token === undefined ? {} : { 'x-undo-token': token } })
}

let addresses = 0
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

// Gallery items carry the counts and their media URLs: the suite runs on both drivers.
describe.each(['local', 's3'] as const)('hearts and comments (%s driver)', (driver) => {
  const server = useTestServer({
    s3: driver === 's3', admin: true, db: true,
    env: { TRUST_PROXY: 'x-forwarded-for', RATE_LIMIT_UPLOADS_PER_MINUTE: String(RATE_LIMIT), UNDO_WINDOW_SECONDS: String(UNDO_WINDOW_SECONDS) },
  })
  const device = () => new Device(server.url, `198.51.100.${++addresses}`)
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })
  const setEvent = (patch: Record<string, unknown>) => admin('/api/admin/event', { method: 'PATCH', json: patch })

  /** The gallery's item once it shows `expected` (counts reach the shared answer within a second). */
  async function galleryItemWhen(id: string, expected: Record<string, unknown>) {
    const deadline = Date.now() + 5000
    for (;;) {
      const item = (await api(server.url, '/api/gallery?limit=100')).body.items.find((entry: { id: string }) => entry.id === id)
      try {
        expect(item).toMatchObject(expected)
        return item
      }
      catch (error) {
        if (Date.now() > deadline) throw error
      }
      await sleep(100)
    }
  }

  it('a heart is one per device: idempotent, counted, set with the guest cookie, taken back by DELETE', async () => {
    const photo = await seedPhoto(server.url)
    const ana = device()
    const bia = device()
    const first = await ana.heart(photo.id)
    expect([first.status, first.body]).toEqual([200, { hearts: 1, hearted: true }])
    expect(first.headers.get('set-cookie')).toMatch(/^em_guest=[\w-]{22}\.[\w-]+;.*HttpOnly/i)
    expect((await ana.heart(photo.id)).body).toEqual({ hearts: 1, hearted: true })
    const second = await bia.heart(photo.id)
    expect([second.status, second.body]).toEqual([200, { hearts: 2, hearted: true }])
    expect(bia.cookie).not.toBe(ana.cookie)
    expect((await bia.unheart(photo.id)).body).toEqual({ hearts: 1, hearted: false })
    expect((await bia.unheart(photo.id)).body).toEqual({ hearts: 1, hearted: false })
    // A device that never hearted takes back nothing.
    expect((await device().unheart(photo.id)).body).toEqual({ hearts: 1, hearted: false })

    const mine = await ana.hearted()
    expect([mine.status, mine.body]).toEqual([200, { ids: [photo.id] }])
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    expect((await bia.hearted()).body).toEqual({ ids: [] })
    expect((await api(server.url, '/api/gallery/hearted')).body).toEqual({ ids: [] })

    const item = await galleryItemWhen(photo.id, { hearts: 1 })
    expect(item).toMatchObject({ hearts: 1, commentCount: 0, latestComment: null })
    const stored = await server.db.execute({ sql: 'SELECT count(*) AS n FROM hearts WHERE upload_id = ?', args: [photo.id] })
    expect(Number(stored.rows[0]!.n)).toBe(1)
  })

  it('the shared gallery answer stays one answer for everyone: no cookie, no device\'s hearts, and 304 to its tag until a count moves', async () => {
    const photo = await seedPhoto(server.url)
    const page = await api(server.url, '/api/gallery?limit=100')
    expect(page.headers.get('set-cookie')).toBeNull()
    expect(page.headers.get('cache-control')).toBe('no-cache')
    expect(JSON.stringify(page.body)).not.toContain('hearted')
    const tag = page.headers.get('etag')!
    expect((await api(server.url, '/api/gallery?limit=100', { headers: { 'if-none-match': tag } })).status).toBe(304)
    // Another device's gallery answer is the same bytes, cookie or not.
    const guest = device()
    await guest.hearted()
    const withCookie = await guest.call('/api/gallery?limit=100', { headers: { 'if-none-match': tag } })
    expect(withCookie.status).toBe(304)

    await sleep(1100)
    await guest.heart(photo.id)
    const moved = await api(server.url, '/api/gallery?limit=100', { headers: { 'if-none-match': tag } })
    expect(moved.status).toBe(200)
    expect(moved.body.items.find((item: { id: string }) => item.id === photo.id).hearts).toBe(1)
  })

  it('hearts leave the admin\'s stats and comments list at 304 (the tablet polls them); a comment moves both', async () => {
    const photo = await seedPhoto(server.url)
    const stats = await admin('/api/admin/stats')
    const comments = await admin('/api/admin/comments')
    const unchanged = async (path: string, tag: string) => (await admin(path, { headers: { 'if-none-match': tag } })).status
    expect((await device().heart(photo.id)).status).toBe(200)
    expect(await unchanged('/api/admin/stats', stats.headers.get('etag')!)).toBe(304)
    expect(await unchanged('/api/admin/comments', comments.headers.get('etag')!)).toBe(304)
    expect((await device().comment(photo.id, { author: 'Lia', text: 'Linda!' })).status).toBe(201)
    expect(await unchanged('/api/admin/stats', stats.headers.get('etag')!)).toBe(200)
    expect(await unchanged('/api/admin/comments', comments.headers.get('etag')!)).toBe(200)
  })

  it('only approved photos and videos can be hearted or commented: a pending upload and an unknown id are 404 NOT_FOUND', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const pending = await seedPhoto(server.url)
    await setModeration(server.url, server.cookie, 'post')
    expect(pending.status).toBe('pending')
    const guest = device()
    for (const id of [pending.id, 'no-such-upload']) {
      for (const response of [await guest.heart(id), await guest.unheart(id), await guest.comment(id, { text: 'Linda!' }), await guest.call(`/api/gallery/${id}/comments`)]) {
        expect([response.status, response.body.data.code], id).toEqual([404, 'NOT_FOUND'])
      }
    }
    const stored = await server.db.execute({ sql: 'SELECT (SELECT count(*) FROM hearts WHERE upload_id = ?1) + (SELECT count(*) FROM comments WHERE upload_id = ?1) AS n', args: [pending.id] })
    expect(Number(stored.rows[0]!.n)).toBe(0)
    // Rejected after a heart: hidden from the device's list and refused as pending is.
    const photo = await seedPhoto(server.url)
    await guest.heart(photo.id)
    expect((await guest.hearted()).body.ids).toContain(photo.id)
    await admin(`/api/admin/uploads/${photo.id}/reject`, { method: 'POST' })
    expect((await guest.hearted()).body.ids).not.toContain(photo.id)
    expect((await guest.heart(photo.id)).status).toBe(404)
  })

  it('behind the gallery\'s gate: 403 GALLERY_CLOSED when closed, 401 GALLERY_PIN_REQUIRED behind a PIN, open again with the PIN cookie', async () => {
    const photo = await seedPhoto(server.url)
    const guest = device()
    const calls = () => [guest.heart(photo.id), guest.unheart(photo.id), guest.hearted(), guest.comment(photo.id, { text: 'Oi' }), guest.call(`/api/gallery/${photo.id}/comments`)]
    onTestFinished(() => setEvent({ galleryMode: 'live', galleryPin: null }).then(() => undefined))
    await setEvent({ galleryMode: 'upload-only' })
    for (const response of await Promise.all(calls())) expect([response.status, response.body.data.code]).toEqual([403, 'GALLERY_CLOSED'])
    await setEvent({ galleryMode: 'live', galleryPin: '2468' })
    for (const response of await Promise.all(calls())) expect([response.status, response.body.data.code]).toEqual([401, 'GALLERY_PIN_REQUIRED'])
    const unlocked = await guest.call('/api/gallery/unlock', { method: 'POST', json: { pin: '2468' } })
    expect(unlocked.status).toBe(204)
    const pinCookie = unlocked.headers.get('set-cookie')!.split(';')[0]!
    const heart = await api(server.url, `/api/gallery/${photo.id}/heart`, { method: 'POST', cookie: pinCookie, headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect([heart.status, heart.body.hearted]).toEqual([200, true])
    expect(await server.db.execute({ sql: 'SELECT count(*) AS n FROM comments WHERE upload_id = ?', args: [photo.id] }).then(r => Number(r.rows[0]!.n))).toBe(0)
  })

  it(`hearts are limited per client at RATE_LIMIT_UPLOADS_PER_MINUTE (${RATE_LIMIT}) with 429 RATE_LIMITED, on a counter of their own`, async () => {
    const photo = await seedPhoto(server.url)
    const guest = device()
    const statuses: number[] = []
    for (let i = 0; i < RATE_LIMIT; i++) statuses.push((await (i % 2 ? guest.unheart(photo.id) : guest.heart(photo.id))).status)
    expect(statuses).toEqual(Array.from({ length: RATE_LIMIT }, () => 200))
    const limited = await guest.heart(photo.id)
    expect([limited.status, limited.body.data.code]).toEqual([429, 'RATE_LIMITED'])
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Comments keep their own budget.
    expect((await guest.comment(photo.id, { text: 'Ainda posso comentar' })).status).toBe(201)
  })

  it('under post-moderation a comment is 201 approved at once, listed oldest first with paging, and rides on the gallery item', async () => {
    const photo = await seedPhoto(server.url)
    const guest = device()
    const sent = await guest.comment(photo.id, { author: '  Tia Conceição ', text: ' Que linda!\u200B ' })
    expect(sent.status).toBe(201)
    expect(Object.keys(sent.body).sort()).toEqual(['id', 'status', 'undoToken', 'undoUntil'])
    expect(sent.body.status).toBe('approved')
    expect(sent.body.undoToken).toMatch(/^[\w-]{43}$/)
    const until = Date.parse(sent.body.undoUntil) - Date.now()
    expect(until).toBeGreaterThan(0)
    expect(until).toBeLessThanOrEqual(UNDO_WINDOW_SECONDS * 1000)
    const ids = [sent.body.id]
    for (let i = 1; i <= 4; i++) ids.push((await guest.comment(photo.id, { author: `Primo ${i}`, text: `Recado ${i}` })).body.id)

    const first = await api(server.url, `/api/gallery/${photo.id}/comments?limit=2`)
    expect(first.status).toBe(200)
    expect(first.body.items[0]).toEqual({
      id: sent.body.id, author: 'Tia Conceição', text: 'Que linda!', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await api(server.url, `/api/gallery/${photo.id}/comments?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.items.map((item: { id: string }) => item.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(ids)
    await galleryItemWhen(photo.id, { commentCount: 5, latestComment: { author: 'Primo 4', text: 'Recado 4' } })

    for (const body of [{}, { text: '' }, { text: '\u200B' }, { text: 'x'.repeat(GUESTBOOK_TEXT_MAX_LENGTH + 1) }, { text: 'ok', author: 'a'.repeat(AUTHOR_MAX_LENGTH + 1) }, { text: 'bell\u0007' }, { text: 'ok', extra: 1 }]) {
      const refused = await guest.comment(photo.id, body)
      expect([refused.status, refused.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
    }
    for (const query of ['cursor=nope', 'limit=0', 'limit=101', 'other=1']) {
      const bad = await api(server.url, `/api/gallery/${photo.id}/comments?${query}`)
      expect([bad.status, bad.body.data.code], query).toEqual([400, 'INVALID_REQUEST'])
    }
  })

  it('under pre-moderation a comment is pending, out of the list and the gallery until an admin approves it', async () => {
    const photo = await seedPhoto(server.url)
    await setModeration(server.url, server.cookie, 'pre')
    const sent = await device().comment(photo.id, { author: 'Vovó', text: 'Esperando' })
    await setModeration(server.url, server.cookie, 'post')
    expect([sent.status, sent.body.status]).toEqual([201, 'pending'])
    expect((await api(server.url, `/api/gallery/${photo.id}/comments`)).body).toEqual({ items: [], nextCursor: null })
    await sleep(1100)
    await galleryItemWhen(photo.id, { commentCount: 0, latestComment: null })
    const approved = await admin(`/api/admin/comments/${sent.body.id}/approve`, { method: 'POST' })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ id: sent.body.id, uploadId: photo.id, status: 'approved', author: 'Vovó', text: 'Esperando' })
    expect((await api(server.url, `/api/gallery/${photo.id}/comments`)).body.items.map((item: { id: string }) => item.id)).toEqual([sent.body.id])
    await galleryItemWhen(photo.id, { commentCount: 1, latestComment: { author: 'Vovó', text: 'Esperando' } })
  })

  it('undo: the device\'s token removes its comment (204); a wrong or missing token is 403, an unknown id 404, a late one 409 UNDO_EXPIRED', async () => {
    const photo = await seedPhoto(server.url)
    const guest = device()
    const mine = (await guest.comment(photo.id, { text: 'Ops' })).body
    const other = (await guest.comment(photo.id, { text: 'Outro' })).body
    for (const token of ['not-the-token', other.undoToken, '', undefined]) {
      const refused = await guest.undo(photo.id, mine.id, token)
      expect([refused.status, refused.body.data.code], String(token)).toEqual([403, 'UNDO_TOKEN_INVALID'])
    }
    const done = await guest.undo(photo.id, mine.id, mine.undoToken)
    expect([done.status, done.body]).toEqual([204, null])
    expect((await guest.undo(photo.id, mine.id, mine.undoToken)).body.data.code).toBe('NOT_FOUND')
    // Another upload's path does not reach the comment.
    const elsewhere = await seedPhoto(server.url)
    expect((await guest.undo(elsewhere.id, other.id, other.undoToken)).status).toBe(404)
    await sleep(UNDO_WINDOW_SECONDS * 1000 + 300)
    const late = await guest.undo(photo.id, other.id, other.undoToken)
    expect([late.status, late.body.data.code]).toEqual([409, 'UNDO_EXPIRED'])
    expect((await api(server.url, `/api/gallery/${photo.id}/comments`)).body.items.map((item: { id: string }) => item.id)).toEqual([other.id])
  })

  it('admin: lists comments by status and search with a total, approves, rejects, deletes, and acts in bulk; 401 without a session', async () => {
    const photo = await seedPhoto(server.url)
    await setModeration(server.url, server.cookie, 'pre')
    const guest = device()
    const joao = (await guest.comment(photo.id, { author: 'JOÃO', text: 'Viva os noivos' })).body
    const maria = (await guest.comment(photo.id, { author: 'Maria', text: 'Que festa 100% linda' })).body
    const rita = (await guest.comment(photo.id, { author: 'Rita', text: 'Três' })).body
    await setModeration(server.url, server.cookie, 'post')
    expect((await api(server.url, '/api/admin/comments')).status).toBe(401)
    expect((await api(server.url, `/api/admin/comments/${joao.id}/approve`, { method: 'POST' })).status).toBe(401)

    const pending = await admin('/api/admin/comments?status=pending')
    expect(pending.status).toBe(200)
    expect(pending.body.items.map((item: { id: string }) => item.id)).toEqual([rita.id, maria.id, joao.id])
    expect(pending.body.total).toBe(3)
    expect(pending.body.items[0]).toEqual({
      id: rita.id, uploadId: photo.id, status: 'pending', author: 'Rita', text: 'Três',
      createdAt: expect.any(String), updatedAt: expect.any(String), thumbUrl: expect.any(String),
    })
    expect((await admin(`/api/admin/comments?q=${encodeURIComponent('joao')}`)).body.items.map((item: { id: string }) => item.id)).toEqual([joao.id])
    expect((await admin(`/api/admin/comments?q=${encodeURIComponent('100%')}`)).body.total).toBe(1)
    const paged = await admin('/api/admin/comments?status=pending&limit=2')
    expect(paged.body.items).toHaveLength(2)
    const rest = await admin(`/api/admin/comments?status=pending&limit=2&cursor=${paged.body.nextCursor}`)
    expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([joao.id])
    const tag = pending.headers.get('etag')!
    expect((await admin('/api/admin/comments?status=pending', { headers: { 'if-none-match': tag } })).status).toBe(304)

    expect((await admin(`/api/admin/comments/${joao.id}/reject`, { method: 'POST' })).body.status).toBe('rejected')
    expect((await admin('/api/admin/comments?status=pending', { headers: { 'if-none-match': tag } })).status).toBe(200)
    const removed = await admin(`/api/admin/comments/${joao.id}`, { method: 'DELETE' })
    expect([removed.status, removed.body]).toEqual([200, { id: joao.id, deleted: true }])
    for (const path of [`/api/admin/comments/${joao.id}/approve`, `/api/admin/comments/${joao.id}/reject`]) {
      const missing = await admin(path, { method: 'POST' })
      expect([missing.status, missing.body.data.code]).toEqual([404, 'NOT_FOUND'])
    }
    expect((await admin(`/api/admin/comments/${joao.id}`, { method: 'DELETE' })).status).toBe(404)

    const bulk = await admin('/api/admin/comments/bulk', { method: 'POST', json: { ids: [maria.id, rita.id, 'nope'], action: 'approve' } })
    expect([bulk.status, bulk.body]).toEqual([200, { action: 'approve', processed: [maria.id, rita.id], notFound: ['nope'] }])
    expect((await api(server.url, `/api/gallery/${photo.id}/comments`)).body.items.map((item: { id: string }) => item.id)).toEqual([maria.id, rita.id])
    const gone = await admin('/api/admin/comments/bulk', { method: 'POST', json: { ids: [maria.id], action: 'delete' } })
    expect(gone.body).toEqual({ action: 'delete', processed: [maria.id], notFound: [] })
    for (const body of [{ ids: [], action: 'approve' }, { ids: [rita.id], action: 'explode' }, { ids: [rita.id] }]) {
      const bad = await admin('/api/admin/comments/bulk', { method: 'POST', json: body })
      expect([bad.status, bad.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
    }
    const status = await admin('/api/admin/comments?status=sideways')
    expect([status.status, status.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
  })

  it('the admin\'s records carry hearts and approved comments; deleting an upload deletes its hearts and comments', async () => {
    const photo = await seedPhoto(server.url)
    const guest = device()
    await guest.heart(photo.id)
    await device().heart(photo.id)
    await guest.comment(photo.id, { text: 'Um' })
    await setModeration(server.url, server.cookie, 'pre')
    await guest.comment(photo.id, { text: 'Dois, pendente' })
    await setModeration(server.url, server.cookie, 'post')
    const record = (await admin('/api/admin/uploads?limit=200')).body.items.find((item: { id: string }) => item.id === photo.id)
    expect(record).toMatchObject({ hearts: 2, commentCount: 1 })
    const patched = await admin(`/api/admin/uploads/${photo.id}`, { method: 'PATCH', json: {} })
    expect(patched.body).toMatchObject({ hearts: 2, commentCount: 1 })

    // Most hearted first, ties newest first, paged without repeats.
    const byHearts = await admin('/api/admin/uploads?sort=hearts&limit=1')
    expect(byHearts.status).toBe(200)
    expect(byHearts.body.items[0].hearts).toBeGreaterThanOrEqual(2)
    const order: { id: string, hearts: number }[] = []
    let cursor: string | null = null
    do {
      const page: any = await admin(`/api/admin/uploads?sort=hearts&limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      order.push(...page.body.items.map((item: { id: string, hearts: number }) => ({ id: item.id, hearts: item.hearts })))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(order.map(item => item.hearts)).toEqual([...order.map(item => item.hearts)].sort((a, b) => b - a))
    expect(new Set(order.map(item => item.id)).size).toBe(order.length)
    expect(order.length).toBe(byHearts.body.total)
    expect(order.find(item => item.id === photo.id)!.hearts).toBe(2)
    for (const query of ['sort=likes', `sort=hearts&cursor=${encodeURIComponent(byHearts.body.nextCursor.slice(1))}`]) {
      const bad = await admin(`/api/admin/uploads?${query}`)
      expect([bad.status, bad.body.data.code], query).toEqual([400, 'INVALID_REQUEST'])
    }

    const count = async () => Number((await server.db.execute({ sql: 'SELECT (SELECT count(*) FROM hearts WHERE upload_id = ?1) + (SELECT count(*) FROM comments WHERE upload_id = ?1) AS n', args: [photo.id] })).rows[0]!.n)
    expect(await count()).toBe(4)
    expect((await admin(`/api/admin/uploads/${photo.id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await count()).toBe(0)
    // A bulk delete takes them too.
    const other = await seedPhoto(server.url)
    await guest.heart(other.id)
    await guest.comment(other.id, { text: 'Três' })
    await admin('/api/admin/uploads/bulk', { method: 'POST', json: { ids: [other.id], action: 'delete' } })
    const left = await server.db.execute({ sql: 'SELECT (SELECT count(*) FROM hearts WHERE upload_id = ?1) + (SELECT count(*) FROM comments WHERE upload_id = ?1) AS n', args: [other.id] })
    expect(Number(left.rows[0]!.n)).toBe(0)
  })

  it('the export: manifest.csv counts hearts and comments, comments.csv holds every approved comment in the event\'s language', async () => {
    const photo = await seedPhoto(server.url, { author: 'Export' })
    const guest = device()
    await guest.heart(photo.id)
    const said = (await guest.comment(photo.id, { author: '=cmd', text: 'Lindos, "queridos"' })).body
    await setModeration(server.url, server.cookie, 'pre')
    await guest.comment(photo.id, { author: 'Fora', text: 'pendente' })
    await setModeration(server.url, server.cookie, 'post')

    const response = await fetch(`${server.url}/api/admin/export.zip`, { headers: { cookie: server.cookie } })
    expect(response.status).toBe(200)
    const entries = await unzip(Buffer.from(await response.arrayBuffer()))
    expect(entries.slice(-3).map(entry => entry.name)).toEqual(['comments.csv', 'guestbook.csv', 'manifest.csv'])
    const manifest = entries.find(entry => entry.name === 'manifest.csv')!.bytes.toString('utf8').split('\r\n')
    expect(manifest[0]).toBe('\uFEFFid,autor,mensagem,tipo,enviado em,arquivo,nome original,metadados,corações,comentários,momento,exibição')
    // An id is a cell like any other: one that starts with "-" (1 in 64) carries the formula guard.
    const idCell = csvCell(photo.id)
    const line = manifest.find(row => row.startsWith(`${idCell},`))!
    expect(line.endsWith(',1,1,,')).toBe(true)

    const comments = entries.find(entry => entry.name === 'comments.csv')!.bytes.toString('utf8').split('\r\n')
    expect(comments[0]).toBe('\uFEFFid da foto,autor,comentário,enviado em')
    const mine = comments.filter(row => row.startsWith(`${idCell},`))
    const createdAt = (await api(server.url, `/api/gallery/${photo.id}/comments`)).body.items.find((item: { id: string }) => item.id === said.id).createdAt
    expect(mine).toEqual([`${idCell},'=cmd,"Lindos, ""queridos""",${createdAt}`])
  })
})
