import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { setModeration } from '../support/seed'
import { AUTHOR_MAX_LENGTH, GUESTBOOK_TEXT_MAX_LENGTH } from '../../shared/limits'

const post = (base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api(base, '/api/guestbook', { method: 'POST', json: body, headers })
const undo = (base: string, id: string, token?: string) =>
  api(base, `/api/guestbook/${id}`, { method: 'DELETE', headers: token === undefined ? {} : { 'x-undo-token': token } })
const publicIds = async (base: string) =>
  (await api(base, '/api/guestbook?limit=100')).body.items.map((item: { id: string }) => item.id)

// Written messages touch no storage: one driver (the local disk). Spoken ones are uploads, proven on
// both drivers by guestbook-audio.test.ts.
describe('guestbook', () => {
  const server = useTestServer({ admin: true, db: true, env: { UNDO_WINDOW_SECONDS: '120' } })
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })

  it('a written message is 201 with its id, status, undo token and window; approved at once under post-moderation', async () => {
    await setModeration(server.url, server.cookie, 'post')
    const response = await post(server.url, { author: '  Tia Conceição ', text: ' Felicidades, meus queridos! ' })
    expect(response.status).toBe(201)
    expect(Object.keys(response.body).sort()).toEqual(['id', 'status', 'undoToken', 'undoWindowSec'])
    expect(response.body.status).toBe('approved')
    expect(response.body.undoToken).toMatch(/^[\w-]{43}$/)
    expect(response.body.undoWindowSec).toBe(120)
    const page = await api(server.url, '/api/guestbook')
    expect(page.status).toBe(200)
    expect(page.body.items[0]).toEqual({
      id: response.body.id, type: 'text', author: 'Tia Conceição', text: 'Felicidades, meus queridos!',
      audioUrl: null, durationSec: null, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    // The database keeps the token's hash, never the token.
    const stored = (await server.db.execute({ sql: 'SELECT undo_token_hash FROM guestbook_messages WHERE id = ?', args: [response.body.id] })).rows[0]!
    expect(stored.undo_token_hash).toMatch(/^[\da-f]{64}$/)
  })

  it('under pre-moderation a message is pending and stays out of the public list until approved', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const { body } = await post(server.url, { text: 'Esperando aprovação' })
    expect(body.status).toBe('pending')
    expect(await publicIds(server.url)).not.toContain(body.id)
    const approved = await admin(`/api/admin/guestbook/${body.id}`, { method: 'PATCH', json: { status: 'approved' } })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ id: body.id, type: 'text', status: 'approved', author: '', text: 'Esperando aprovação' })
    expect(await publicIds(server.url)).toContain(body.id)
    await setModeration(server.url, server.cookie, 'post')
  })

  it('refuses bad messages with 400 INVALID_REQUEST, after the same sanitising as an upload\'s message', async () => {
    const cases: Record<string, unknown>[] = [
      {},
      { text: '' },
      { text: '   ' },
      // Only invisible format characters: nothing left once they are stripped.
      { text: '\u200B\u202E' },
      { text: 'x'.repeat(GUESTBOOK_TEXT_MAX_LENGTH + 1) },
      { text: 'ok', author: 'a'.repeat(AUTHOR_MAX_LENGTH + 1) },
      { text: 'bell\u0007' },
      { text: 'ok', extra: 1 },
      { text: 42 },
    ]
    for (const body of cases) {
      const response = await post(server.url, body)
      expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
    }
    const longest = await post(server.url, { text: `${'y'.repeat(GUESTBOOK_TEXT_MAX_LENGTH)}\u200B` })
    expect(longest.status).toBe(201)
    const stored = (await server.db.execute({ sql: 'SELECT text FROM guestbook_messages WHERE id = ?', args: [longest.body.id] })).rows[0]!
    expect(stored.text).toBe('y'.repeat(GUESTBOOK_TEXT_MAX_LENGTH))
    const count = (await server.db.execute(`SELECT count(*) AS n FROM guestbook_messages WHERE text = 'ok' OR text LIKE 'bell%'`)).rows[0]!
    expect(Number(count.n)).toBe(0)
  })

  it('undo: the device\'s token removes its message; a wrong or missing token is 403, an unknown id 404', async () => {
    const mine = (await post(server.url, { author: 'Primo', text: 'Ops, mandei errado' })).body
    const other = (await post(server.url, { text: 'Outro recado' })).body
    for (const token of ['not-the-token', other.undoToken, '', undefined]) {
      const refused = await undo(server.url, mine.id, token)
      expect([refused.status, refused.body.data.code], String(token)).toEqual([403, 'UNDO_TOKEN_INVALID'])
    }
    expect(await publicIds(server.url)).toContain(mine.id)
    const done = await undo(server.url, mine.id, mine.undoToken)
    expect([done.status, done.body]).toEqual([200, { id: mine.id, deleted: true }])
    expect(await publicIds(server.url)).not.toContain(mine.id)
    const again = await undo(server.url, mine.id, mine.undoToken)
    expect([again.status, again.body.data.code]).toEqual([404, 'NOT_FOUND'])
    const unknown = await undo(server.url, 'no-such-message', 'whatever')
    expect([unknown.status, unknown.body.data.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('the public list is newest first, cursor-paged without repeats, and answers 304 to its own tag until a message changes', async () => {
    const sent: string[] = []
    for (let i = 0; i < 5; i++) sent.push((await post(server.url, { author: `Convidado ${i}`, text: `Recado ${i}` })).body.id)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await api(server.url, `/api/guestbook?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      expect(page.body.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.items.map((item: { id: string }) => item.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.slice(0, 5)).toEqual([...sent].reverse())

    const first = await api(server.url, '/api/guestbook')
    const tag = first.headers.get('etag')!
    expect(tag).toMatch(/^W\/"guestbook/)
    expect(first.headers.get('cache-control')).toBe('no-cache')
    expect((await api(server.url, '/api/guestbook', { headers: { 'if-none-match': tag } })).status).toBe(304)
    await admin(`/api/admin/guestbook/${sent[0]}`, { method: 'PATCH', json: { status: 'rejected' } })
    const moved = await api(server.url, '/api/guestbook', { headers: { 'if-none-match': tag } })
    expect(moved.status).toBe(200)
    expect(moved.body.items.map((item: { id: string }) => item.id)).not.toContain(sent[0])

    for (const query of ['cursor=nope', 'limit=0', 'limit=101', 'other=1']) {
      const bad = await api(server.url, `/api/guestbook?${query}`)
      expect([bad.status, bad.body.data.code], query).toEqual([400, 'INVALID_REQUEST'])
    }
  })

  it('admin list: status filter, search folded like the uploads\', paging and total; 401 without a session', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const joao = (await post(server.url, { author: 'JOÃO Pedro', text: 'Viva os noivos' })).body
    const maria = (await post(server.url, { author: 'Maria', text: 'Que festa 100% linda' })).body
    await setModeration(server.url, server.cookie, 'post')
    expect((await api(server.url, '/api/admin/guestbook')).status).toBe(401)

    const pending = await admin('/api/admin/guestbook?status=pending')
    expect(pending.status).toBe(200)
    expect(pending.body.items.every((item: { status: string }) => item.status === 'pending')).toBe(true)
    expect(pending.body.items.map((item: { id: string }) => item.id).slice(0, 2)).toEqual([maria.id, joao.id])
    expect(pending.body.total).toBe(pending.body.items.length)

    const found = await admin(`/api/admin/guestbook?q=${encodeURIComponent('joao')}`)
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([joao.id])
    expect(found.body.total).toBe(1)
    // `%` is plain text, not a wildcard.
    const percent = await admin(`/api/admin/guestbook?q=${encodeURIComponent('100%')}`)
    expect(percent.body.items.map((item: { id: string }) => item.id)).toEqual([maria.id])
    expect((await admin(`/api/admin/guestbook?q=${encodeURIComponent('%')}`)).body.total).toBe(1)

    const all = await admin('/api/admin/guestbook?limit=3')
    expect(all.body.items).toHaveLength(3)
    expect(all.body.total).toBeGreaterThan(3)
    const next = await admin(`/api/admin/guestbook?limit=3&cursor=${all.body.nextCursor}`)
    expect(next.body.items.map((item: { id: string }) => item.id)).not.toContain(all.body.items[2].id)

    const tag = all.headers.get('etag')!
    expect(all.headers.get('cache-control')).toBe('private, no-store')
    expect((await admin('/api/admin/guestbook?limit=3', { headers: { 'if-none-match': tag } })).status).toBe(304)
  })

  it('admin edits author and text (bounded as when sent), deletes, and answers 404 for an unknown id', async () => {
    const { body } = await post(server.url, { author: 'Tio', text: 'Parabéns' })
    const edited = await admin(`/api/admin/guestbook/${body.id}`, { method: 'PATCH', json: { author: ' Tio Zé ', text: 'Parabéns aos noivos!' } })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ id: body.id, author: 'Tio Zé', text: 'Parabéns aos noivos!', status: 'approved' })
    expect((await admin(`/api/admin/guestbook?q=${encodeURIComponent('tio ze')}`)).body.items.map((i: { id: string }) => i.id)).toEqual([body.id])
    for (const patch of [{ text: '' }, { status: 'maybe' }, { author: 'x'.repeat(AUTHOR_MAX_LENGTH + 1) }, { other: 1 }]) {
      const bad = await admin(`/api/admin/guestbook/${body.id}`, { method: 'PATCH', json: patch })
      expect([bad.status, bad.body.data.code], JSON.stringify(patch)).toEqual([400, 'INVALID_REQUEST'])
    }
    const missing = await admin('/api/admin/guestbook/no-such-message', { method: 'PATCH', json: { status: 'approved' } })
    expect([missing.status, missing.body.data.code]).toEqual([404, 'NOT_FOUND'])

    const deleted = await admin(`/api/admin/guestbook/${body.id}`, { method: 'DELETE' })
    expect([deleted.status, deleted.body]).toEqual([200, { id: body.id, deleted: true }])
    const gone = await admin(`/api/admin/guestbook/${body.id}`, { method: 'DELETE' })
    expect([gone.status, gone.body.data.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('bulk approves, rejects and deletes the ids it finds and reports the others; stats count messages by status', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await post(server.url, { text: `Lote ${i}` })).body.id)
    await setModeration(server.url, server.cookie, 'post')

    const before = (await admin('/api/admin/stats')).body.messages
    const approved = await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids: [...ids, 'unknown-id'], action: 'approve' } })
    expect(approved.body).toEqual({ action: 'approve', processed: ids, notFound: ['unknown-id'] })
    const after = (await admin('/api/admin/stats')).body.messages
    expect(after).toEqual({ ...before, pending: before.pending - 3, approved: before.approved + 3 })
    expect(after.total).toBe(after.pending + after.approved + after.rejected)
    const counted = (await server.db.execute('SELECT count(*) AS n FROM guestbook_messages')).rows[0]!
    expect(after.total).toBe(Number(counted.n))

    expect((await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids: [ids[0]], action: 'reject' } })).body.processed).toEqual([ids[0]])
    expect(await publicIds(server.url)).not.toContain(ids[0])
    const removed = await admin('/api/admin/guestbook/bulk', { method: 'POST', json: { ids, action: 'delete' } })
    expect(removed.body).toEqual({ action: 'delete', processed: ids, notFound: [] })
    expect((await admin('/api/admin/stats')).body.messages.total).toBe(after.total - 3)
    for (const body of [{ ids: [], action: 'approve' }, { ids: ['a'], action: 'cover' }]) {
      expect((await admin('/api/admin/guestbook/bulk', { method: 'POST', json: body })).status).toBe(400)
    }
  })
})

describe('guestbook rate limit and undo window', () => {
  const PER_MINUTE = 10
  const server = useTestServer({ env: { RATE_LIMIT_UPLOADS_PER_MINUTE: String(PER_MINUTE), UNDO_WINDOW_SECONDS: '1' } })

  it(`a parallel burst of 30 messages from one client gets exactly ${PER_MINUTE} × 201, the rest 429 RATE_LIMITED`, async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => post(server.url, { text: `Rajada ${i}` })))
    const counts: Record<number, number> = {}
    for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1
    expect(counts).toEqual({ 201: PER_MINUTE, 429: 30 - PER_MINUTE })
    for (const refused of responses.filter(r => r.status === 429)) {
      expect(refused.body.data.code).toBe('RATE_LIMITED')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    }
  })
})

describe('guestbook undo after the window', () => {
  const server = useTestServer({ env: { UNDO_WINDOW_SECONDS: '1' } })

  it('is 409 UNDO_EXPIRED with the right token, 403 with a wrong one, and the message stays', async () => {
    const { body } = await post(server.url, { text: 'Tarde demais' })
    await new Promise(resolve => setTimeout(resolve, 1500))
    const late = await undo(server.url, body.id, body.undoToken)
    expect([late.status, late.body.data.code]).toEqual([409, 'UNDO_EXPIRED'])
    const wrong = await undo(server.url, body.id, 'not-the-token')
    expect([wrong.status, wrong.body.data.code]).toEqual([403, 'UNDO_TOKEN_INVALID'])
    expect(await publicIds(server.url)).toContain(body.id)
  })
})
