import assert from 'node:assert/strict'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, derivationSettled, distinctJpeg, setModeration } from '../support/seed'
import { uploadFile } from '../support/uploads'

const MOMENT_FIELDS = ['endsAt', 'id', 'name', 'position', 'startsAt']

describe('moments', () => {
  const server = useTestServer({ admin: true, db: true })
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })
  const create = (json: unknown) => admin('POST', '/api/admin/moments', json)

  /** A confirmed photo sent with these init fields, once it is in the gallery (post-moderation). */
  async function photo(fields: { momentId?: string, takenAt?: string, author?: string } = {}) {
    const bytes = await distinctJpeg()
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, fileName: 'IMG.JPG', ...fields })
    assert.equal(confirm.status, 200)
    await derivationSettled(server.url)
    return init.id as string
  }
  const initWith = (fields: Record<string, unknown>) => api(server.url, '/api/uploads/init', {
    method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 100, ...fields },
  })
  const momentOf = async (id: string) => (await adminRecord(server.url, server.cookie, id)).body.momentId

  describe('admin CRUD', () => {
    it('creates a moment last in the order, with exactly the contract fields (201)', async () => {
      const first = await create({ name: '  Cerimônia ', startsAt: '2026-11-21T19:00:00-03:00', endsAt: '2026-11-21T20:00:00-03:00' })
      expect(first.status).toBe(201)
      expect(Object.keys(first.body).sort()).toEqual(MOMENT_FIELDS)
      expect(first.body).toMatchObject({ name: 'Cerimônia', startsAt: '2026-11-21T22:00:00.000Z', endsAt: '2026-11-21T23:00:00.000Z' })
      const second = await create({ name: 'Festa' })
      expect(second.status).toBe(201)
      expect(second.body).toMatchObject({ name: 'Festa', startsAt: null, endsAt: null, position: first.body.position + 1 })
      const list = await admin('GET', '/api/admin/moments')
      expect(list.status).toBe(200)
      expect(list.body.items.map((m: any) => m.name)).toEqual(['Cerimônia', 'Festa'])
      for (const id of [first.body.id, second.body.id]) expect((await admin('DELETE', `/api/admin/moments/${id}`)).status).toBe(204)
    })

    it('refuses a taken name with 409 MOMENT_EXISTS, on create and on rename', async () => {
      const brinde = await create({ name: 'Brinde' })
      const again = await create({ name: 'Brinde' })
      expect([again.status, again.body.data.code]).toEqual([409, 'MOMENT_EXISTS'])
      const other = await create({ name: 'Valsa' })
      const rename = await admin('PATCH', `/api/admin/moments/${other.body.id}`, { name: 'Brinde' })
      expect([rename.status, rename.body.data.code]).toEqual([409, 'MOMENT_EXISTS'])
      const same = await admin('PATCH', `/api/admin/moments/${brinde.body.id}`, { name: 'Brinde' })
      expect(same.status).toBe(200)
      const renamed = await admin('PATCH', `/api/admin/moments/${other.body.id}`, { name: 'A valsa' })
      expect([renamed.status, renamed.body.name]).toEqual([200, 'A valsa'])
      for (const id of [brinde.body.id, other.body.id]) await admin('DELETE', `/api/admin/moments/${id}`)
    })

    it('refuses names outside 1–60 characters and windows that do not end after they start (400 INVALID_REQUEST)', async () => {
      for (const body of [
        { name: '' }, { name: '   ' }, { name: 'x'.repeat(61) }, {},
        { name: 'Janta', startsAt: '2026-11-21T20:00:00Z', endsAt: '2026-11-21T20:00:00Z' },
        { name: 'Janta', startsAt: '2026-11-21T20:00:00Z', endsAt: '2026-11-21T19:00:00Z' },
        { name: 'Janta', startsAt: '2026-11-21T20:00:00' },
        { name: 'Janta', extra: 1 },
      ]) {
        const response = await create(body)
        expect([response.status, response.body.data?.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
      }
      const sixty = await create({ name: 'x'.repeat(60) })
      expect(sixty.status).toBe(201)
      await admin('DELETE', `/api/admin/moments/${sixty.body.id}`)
      // A PATCH is checked against the window it leaves.
      const janta = await create({ name: 'Janta', startsAt: '2026-11-21T20:00:00Z' })
      const before = await admin('PATCH', `/api/admin/moments/${janta.body.id}`, { endsAt: '2026-11-21T19:59:59Z' })
      expect([before.status, before.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      const after = await admin('PATCH', `/api/admin/moments/${janta.body.id}`, { endsAt: '2026-11-21T22:00:00Z' })
      expect([after.status, after.body.startsAt, after.body.endsAt]).toEqual([200, '2026-11-21T20:00:00.000Z', '2026-11-21T22:00:00.000Z'])
      const open = await admin('PATCH', `/api/admin/moments/${janta.body.id}`, { startsAt: null })
      expect([open.status, open.body.startsAt]).toEqual([200, null])
      await admin('DELETE', `/api/admin/moments/${janta.body.id}`)
    })

    it('answers 404 NOT_FOUND for an unknown moment, and 401 without a session', async () => {
      for (const [method, json] of [['PATCH', { name: 'X' }], ['DELETE', undefined]] as const) {
        const response = await admin(method, '/api/admin/moments/nope', json)
        expect([response.status, response.body.data.code]).toEqual([404, 'NOT_FOUND'])
      }
      for (const [method, path] of [['GET', '/api/admin/moments'], ['POST', '/api/admin/moments'], ['PUT', '/api/admin/moments/order'], ['DELETE', '/api/admin/moments/x']] as const) {
        const response = await api(server.url, path, { method, json: method === 'GET' ? undefined : {} })
        expect([response.status, response.body.data.code], path).toEqual([401, 'UNAUTHENTICATED'])
      }
    })

    it('reorders with every id once, and refuses a list that drops or repeats one', async () => {
      const ids = [] as string[]
      for (const name of ['Um', 'Dois', 'Três']) ids.push((await create({ name })).body.id)
      const reordered = await admin('PUT', '/api/admin/moments/order', { ids: [ids[2], ids[0], ids[1]] })
      expect(reordered.status).toBe(200)
      expect(reordered.body.items.map((m: any) => [m.name, m.position])).toEqual([['Três', 0], ['Um', 1], ['Dois', 2]])
      for (const bad of [[ids[0], ids[1]], [ids[0], ids[1], ids[1]], [...ids, 'other']]) {
        const response = await admin('PUT', '/api/admin/moments/order', { ids: bad })
        expect([response.status, response.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      }
      expect((await admin('GET', '/api/admin/moments')).body.items.map((m: any) => m.name)).toEqual(['Três', 'Um', 'Dois'])
      for (const id of ids) await admin('DELETE', `/api/admin/moments/${id}`)
    })
  })

  describe('the moment of an upload', () => {
    let cerimonia: string, brinde: string, festa: string

    beforeAll(async () => {
      // Cerimônia 19:00–21:00 and Brinde 20:00–22:00 (Brasília, −03:00) overlap from 20:00 to 21:00.
      cerimonia = (await create({ name: 'Cerimônia', startsAt: '2026-11-21T19:00:00-03:00', endsAt: '2026-11-21T21:00:00-03:00' })).body.id
      brinde = (await create({ name: 'Brinde', startsAt: '2026-11-21T20:00:00-03:00', endsAt: '2026-11-21T22:00:00-03:00' })).body.id
      festa = (await create({ name: 'Festa' })).body.id
    })

    it('follows takenAt: inside a window, outside every window, and the first by position where windows overlap', async () => {
      const inside = await photo({ takenAt: '2026-11-21T22:30:00Z' }) // 19:30 in Brasília
      const edge = await photo({ takenAt: '2026-11-21T21:00:00-03:00' }) // Cerimônia ends here, Brinde goes on
      const outside = await photo({ takenAt: '2026-11-21T18:59:59-03:00' })
      const overlap = await photo({ takenAt: '2026-11-21T20:30:00-03:00' })
      const none = await photo()
      expect(await momentOf(inside)).toBe(cerimonia)
      expect(await momentOf(edge)).toBe(brinde)
      expect(await momentOf(outside)).toBeNull()
      expect(await momentOf(overlap)).toBe(cerimonia)
      expect(await momentOf(none)).toBeNull()
      const record = (await adminRecord(server.url, server.cookie, inside)).body
      expect(record.takenAt).toBe('2026-11-21T22:30:00.000Z')
      expect((await adminRecord(server.url, server.cookie, none)).body.takenAt).toBeNull()

      // A new order decides later uploads only: nothing already sent moves.
      expect((await admin('PUT', '/api/admin/moments/order', { ids: [brinde, cerimonia, festa] })).status).toBe(200)
      const later = await photo({ takenAt: '2026-11-21T20:30:00-03:00' })
      expect(await momentOf(later)).toBe(brinde)
      expect(await momentOf(overlap)).toBe(cerimonia)
      expect((await admin('PUT', '/api/admin/moments/order', { ids: [cerimonia, brinde, festa] })).status).toBe(200)
    })

    it('takes the guest\'s momentId over takenAt, and a moment without a window only so', async () => {
      const chosen = await photo({ momentId: festa, takenAt: '2026-11-21T22:30:00Z' })
      expect(await momentOf(chosen)).toBe(festa)
    })

    it('refuses an unknown momentId and a takenAt without an offset, unreadable or more than a day ahead (400 INVALID_REQUEST)', async () => {
      const dayAhead = new Date(Date.now() + 25 * 3600_000).toISOString()
      const justAhead = new Date(Date.now() + 23 * 3600_000).toISOString()
      for (const fields of [
        { momentId: 'unknown' }, { momentId: '../x' },
        { takenAt: '2026-11-21T20:30:00' }, { takenAt: 'ontem' }, { takenAt: '2026-13-12T20:30:00Z' }, { takenAt: 1763767800000 }, { takenAt: dayAhead },
      ]) {
        const response = await initWith(fields)
        expect([response.status, response.body.data?.code], JSON.stringify(fields)).toEqual([400, 'INVALID_REQUEST'])
      }
      expect((await initWith({ takenAt: justAhead })).status).toBe(201)
    })

    it('is moved by the admin (PATCH momentId, or null) without locking the words', async () => {
      const id = await photo({ author: 'Ana' })
      const moved = await admin('PATCH', `/api/admin/uploads/${id}`, { momentId: brinde })
      expect([moved.status, moved.body.momentId, moved.body.author]).toEqual([200, brinde, 'Ana'])
      const locked = await server.db.execute({ sql: 'SELECT words_locked FROM uploads WHERE id = ?', args: [id] })
      expect(locked.rows[0]!.words_locked).toBe(0)
      const unknown = await admin('PATCH', `/api/admin/uploads/${id}`, { momentId: 'nope' })
      expect([unknown.status, unknown.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      const cleared = await admin('PATCH', `/api/admin/uploads/${id}`, { momentId: null })
      expect([cleared.status, cleared.body.momentId]).toEqual([200, null])
    })

    it('moves many uploads at once with the bulk action "moment", reporting unknown ids', async () => {
      const ids = [await photo(), await photo()]
      const bulk = await admin('POST', '/api/admin/uploads/bulk', { action: 'moment', momentId: festa, ids: [...ids, 'missing'] })
      expect(bulk.status).toBe(200)
      expect(bulk.body).toEqual({ action: 'moment', processed: ids, notFound: ['missing'] })
      for (const id of ids) expect(await momentOf(id)).toBe(festa)
      const cleared = await admin('POST', '/api/admin/uploads/bulk', { action: 'moment', momentId: null, ids: [ids[0]] })
      expect(cleared.body.processed).toEqual([ids[0]])
      expect(await momentOf(ids[0]!)).toBeNull()
      expect(await momentOf(ids[1]!)).toBe(festa)
      for (const body of [{ action: 'moment', momentId: 'nope', ids }, { action: 'moment', ids }, { action: 'approve', momentId: festa, ids }]) {
        const response = await admin('POST', '/api/admin/uploads/bulk', body)
        expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
      }
      expect(await momentOf(ids[1]!)).toBe(festa)
    })

    it('narrows the admin list to one moment (?moment=), with the other filters; an unknown id lists none', async () => {
      const valsaOnly = (await create({ name: 'Só a valsa' })).body.id
      const ids = [await photo({ momentId: valsaOnly }), await photo({ momentId: valsaOnly })]
      await photo()
      const all = await admin('GET', `/api/admin/uploads?status=all&moment=${valsaOnly}`)
      expect(all.status).toBe(200)
      expect(all.body.items.map((item: any) => item.id)).toEqual([...ids].reverse())
      expect(all.body.total).toBe(2)
      for (const item of all.body.items) expect(item.momentId).toBe(valsaOnly)
      expect((await admin('POST', `/api/admin/uploads/${ids[0]}/reject`)).status).toBe(200)
      const approved = await admin('GET', `/api/admin/uploads?status=approved&moment=${valsaOnly}`)
      expect(approved.body.items.map((item: any) => item.id)).toEqual([ids[1]])
      const paged = await admin('GET', `/api/admin/uploads?status=all&moment=${valsaOnly}&limit=1`)
      const next = await admin('GET', `/api/admin/uploads?status=all&moment=${valsaOnly}&limit=1&cursor=${encodeURIComponent(paged.body.nextCursor)}`)
      expect([...paged.body.items, ...next.body.items].map((item: any) => item.id)).toEqual([...ids].reverse())
      const unknown = await admin('GET', '/api/admin/uploads?status=all&moment=unknown')
      expect([unknown.status, unknown.body.items, unknown.body.total]).toEqual([200, [], 0])
      const bad = await admin('GET', '/api/admin/uploads?moment=a%20b')
      expect([bad.status, bad.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    })

    it('deleting a moment leaves its uploads without one', async () => {
      const temp = (await create({ name: 'Temporário' })).body.id
      const id = await photo({ momentId: temp })
      expect(await momentOf(id)).toBe(temp)
      expect((await admin('DELETE', `/api/admin/moments/${temp}`)).status).toBe(204)
      expect(await momentOf(id)).toBeNull()
      const response = await initWith({ momentId: temp })
      expect([response.status, response.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    })
  })

  describe('the gallery by moment', () => {
    let valsa: string, bolo: string
    const valsaIds: string[] = []

    beforeAll(async () => {
      valsa = (await create({ name: 'Valsa dos noivos' })).body.id
      bolo = (await create({ name: 'Bolo' })).body.id
      for (let i = 0; i < 5; i++) {
        valsaIds.unshift(await photo({ momentId: valsa }))
        await photo({ momentId: bolo })
        await photo()
      }
    })

    it('lists that moment\'s approved items only, newest first, paged by the same cursor, each carrying momentId', async () => {
      await setModeration(server.url, server.cookie, 'pre')
      const pending = await photo({ momentId: valsa })
      await setModeration(server.url, server.cookie, 'post')
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = await api(server.url, `/api/gallery?moment=${valsa}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        expect(page.status).toBe(200)
        expect(page.body.items.length).toBeLessThanOrEqual(2)
        for (const item of page.body.items) expect(item.momentId).toBe(valsa)
        seen.push(...page.body.items.map((item: any) => item.id))
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen).toEqual(valsaIds)
      expect(seen).not.toContain(pending)
      const all = await api(server.url, '/api/gallery?limit=100')
      expect(all.body.items.filter((item: any) => item.momentId === valsa).map((item: any) => item.id)).toEqual(valsaIds)
    })

    it('answers an unknown moment with an empty page (200)', async () => {
      const response = await api(server.url, '/api/gallery?moment=unknown')
      expect([response.status, response.body]).toEqual([200, { items: [], nextCursor: null }])
      const bad = await api(server.url, '/api/gallery?moment=a%20b')
      expect([bad.status, bad.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
    })

    it('has its own tag, answers 304 to it, and a new one once the moment\'s items change', async () => {
      const filtered = await api(server.url, `/api/gallery?moment=${valsa}`)
      const tag = filtered.headers.get('etag')!
      expect(tag).toMatch(/^W\/".+"$/)
      expect(filtered.headers.get('cache-control')).toBe('no-cache')
      expect(tag).not.toBe((await api(server.url, '/api/gallery')).headers.get('etag'))
      expect(tag).not.toBe((await api(server.url, `/api/gallery?moment=${bolo}`)).headers.get('etag'))
      const again = await api(server.url, `/api/gallery?moment=${valsa}`, { headers: { 'if-none-match': tag } })
      expect(again.status).toBe(304)

      const moved = valsaIds[0]!
      expect((await admin('PATCH', `/api/admin/uploads/${moved}`, { momentId: bolo })).status).toBe(200)
      const changed = await api(server.url, `/api/gallery?moment=${valsa}`, { headers: { 'if-none-match': tag } })
      expect(changed.status).toBe(200)
      expect(changed.body.items.map((item: any) => item.id)).toEqual(valsaIds.slice(1))
      expect((await api(server.url, `/api/gallery?moment=${bolo}`)).body.items.map((item: any) => item.id)).toContain(moved)
      expect((await admin('PATCH', `/api/admin/uploads/${moved}`, { momentId: valsa })).status).toBe(200)
    })

    it('counts each moment\'s public photos and videos in GET /api/moments, behind the gallery\'s gate', async () => {
      const list = await api(server.url, '/api/moments')
      expect(list.status).toBe(200)
      expect(list.headers.get('cache-control')).toBe('no-cache')
      const byName = Object.fromEntries(list.body.items.map((m: any) => [m.name, m]))
      expect(byName['Valsa dos noivos']).toEqual({ id: valsa, name: 'Valsa dos noivos', count: 5 })
      expect(byName.Bolo).toEqual({ id: bolo, name: 'Bolo', count: 5 })
      // In the couple's order.
      const order = (await admin('GET', '/api/admin/moments')).body.items.map((m: any) => m.id)
      expect(list.body.items.map((m: any) => m.id)).toEqual(order)
      const tag = list.headers.get('etag')!
      expect((await api(server.url, '/api/moments', { headers: { 'if-none-match': tag } })).status).toBe(304)

      const { screenKey } = (await admin('GET', '/api/admin/event')).body
      expect((await admin('PATCH', '/api/admin/event', { galleryMode: 'upload-only', screenInClosedMode: true })).status).toBe(200)
      try {
        for (const headers of [{}, { 'if-none-match': tag }] as Record<string, string>[]) {
          const closed = await api(server.url, '/api/moments', { headers })
          expect([closed.status, closed.body.data.code]).toEqual([403, 'GALLERY_CLOSED'])
          expect(JSON.stringify(closed.body)).not.toContain('Valsa')
        }
        const screen = await api(server.url, `/api/moments?screenKey=${screenKey}`)
        expect(screen.status).toBe(200)
        expect(screen.body.items.find((m: any) => m.id === valsa).count).toBe(5)
      }
      finally {
        expect((await admin('PATCH', '/api/admin/event', { galleryMode: 'live' })).status).toBe(200)
      }

      // A renamed moment changes the answer's tag.
      expect((await admin('PATCH', `/api/admin/moments/${bolo}`, { name: 'O bolo' })).status).toBe(200)
      const renamed = await api(server.url, '/api/moments', { headers: { 'if-none-match': tag } })
      expect(renamed.status).toBe(200)
      expect(renamed.body.items.find((m: any) => m.id === bolo).name).toBe('O bolo')
    })
  })
})
