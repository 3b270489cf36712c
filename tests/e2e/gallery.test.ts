import { createClient } from '@libsql/client'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, inBatches, seedPhoto, seedUnconfirmed, seedVideo, setModeration, type Seeded } from '../support/seed'

const GALLERY_FIELDS = ['author', 'challengeId', 'commentCount', 'createdAt', 'durationSec', 'hearts', 'height', 'id', 'kind', 'latestComment', 'message', 'momentId', 'thumb2xUrl', 'thumbUrl', 'url', 'width']

/** Every id the gallery lists, page by page, with `between(pageIndex, items)` run between pages. */
async function pageThrough(base: string, limit: number, between?: (page: number, items: any[]) => Promise<void>) {
  const pages: any[][] = []
  let cursor: string | null = null
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const response = await api(base, `/api/gallery${query}`)
    expect(response.status).toBe(200)
    expect(response.body.items.length).toBeLessThanOrEqual(limit)
    pages.push(response.body.items)
    cursor = response.body.nextCursor
    if (cursor && between) await between(pages.length, response.body.items)
    expect(pages.length).toBeLessThan(100)
  } while (cursor)
  return pages
}

function byNewest(a: any, b: any): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a.id < b.id ? 1 : -1
}

describe('gallery', () => {
  const server = useTestServer({ admin: true })
  const approved: Seeded[] = []
  const pending: Seeded[] = []

  beforeAll(async () => {
    // 130 approved photos with a pending one after every 13th, so pending items sit among them.
    for (let batch = 0; batch < 10; batch++) {
      await setModeration(server.url, server.cookie, 'post')
      approved.push(...await inBatches(13, 13, () => seedPhoto(server.url, { author: `Guest ${batch}` })))
      await setModeration(server.url, server.cookie, 'pre')
      pending.push(await seedPhoto(server.url, { author: 'Pending' }))
    }
    await setModeration(server.url, server.cookie, 'post')
  }, 180_000)

  it('lists approved uploads only, with exactly the contract fields', async () => {
    const rejected = await seedPhoto(server.url, { author: 'Rejected' })
    expect((await api(server.url, `/api/admin/uploads/${rejected.id}/reject`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    const unconfirmed = await seedUnconfirmed(server.url)

    const items = (await pageThrough(server.url, 100)).flat()
    const ids = items.map(item => item.id)
    expect(ids).toHaveLength(130)
    expect(new Set(ids)).toEqual(new Set(approved.map(a => a.id)))
    for (const excluded of [rejected.id, unconfirmed, ...pending.map(p => p.id)]) expect(ids).not.toContain(excluded)

    const item = items[0]
    expect(Object.keys(item).sort()).toEqual(GALLERY_FIELDS)
    expect(item).toMatchObject({ kind: 'photo', author: expect.stringMatching(/^Guest \d$/), message: '', durationSec: null, hearts: 0, commentCount: 0, latestComment: null })
    expect(Date.parse(item.createdAt)).not.toBeNaN()
    expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt)
  })

  it('orders newest first, ties broken by id', async () => {
    const items = (await pageThrough(server.url, 100)).flat()
    expect(items).toEqual([...items].sort(byNewest))

    const older = await seedPhoto(server.url, { author: 'Older' })
    const newer = await seedPhoto(server.url, { author: 'Newer' })
    const video = await seedVideo(server.url, { author: 'Newest', message: 'dança' })
    const first = await api(server.url, '/api/gallery?limit=3')
    expect(first.body.items.map((i: any) => i.id)).toEqual([video.id, newer.id, older.id])
    expect(first.body.items[0]).toMatchObject({ kind: 'video', author: 'Newest', message: 'dança', durationSec: 3, thumbUrl: null })
    // A video is shown from its public key; a photo from its metadata-free images, never its original.
    expect(first.body.items[0].url).toContain(video.key)
    for (const photo of first.body.items.slice(1)) {
      expect(photo.url).toMatch(/\/media\/media\/.+-display\.jpg$/)
      expect(photo.thumbUrl).toMatch(/\/media\/media\/.+-thumb\.webp$/)
    }
    for (const id of [older.id, newer.id, video.id]) {
      await api(server.url, `/api/admin/uploads/${id}/reject`, { method: 'POST', cookie: server.cookie })
    }
  })

  it('pages through 130 items 24 at a time, each exactly once, the last page without a cursor', async () => {
    const pages = await pageThrough(server.url, 24)
    expect(pages.map(page => page.length)).toEqual([24, 24, 24, 24, 24, 10])
    const ids = pages.flat().map(item => item.id)
    expect(new Set(ids).size).toBe(130)
    expect(new Set(ids)).toEqual(new Set(approved.map(a => a.id)))
    // The default page size is 24.
    const first = await api(server.url, '/api/gallery')
    expect(first.body.items.map((i: any) => i.id)).toEqual(ids.slice(0, 24))
    expect(typeof first.body.nextCursor).toBe('string')
  })

  it('never repeats or skips an item while uploads are approved, rejected and added between pages', async () => {
    const all = (await pageThrough(server.url, 100)).flat().map(item => item.id)
    const expectedGone = new Set<string>()
    const expectedAdded = new Set<string>()
    const pages = await pageThrough(server.url, 24, async (page, items) => {
      if (page !== 1 && page !== 3) return
      const seen = new Set(items.map(item => item.id))
      const lastSeen = all.indexOf(items[items.length - 1].id)
      // Reject two items not yet reached and one already shown.
      const ahead = all.slice(lastSeen + 1 + page, lastSeen + 3 + page)
      const shown = items[0].id
      for (const id of [...ahead, shown]) {
        expect((await api(server.url, `/api/admin/uploads/${id}/reject`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
      }
      ahead.forEach(id => expectedGone.add(id))
      // Approve pending items: those older than the cursor appear further on, newer ones cannot.
      for (const candidate of pending.splice(0, 3)) {
        expect((await api(server.url, `/api/admin/uploads/${candidate.id}/approve`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
        expectedAdded.add(candidate.id)
      }
      // New uploads are newer than every cursor: they wait for the next visit.
      await seedPhoto(server.url, { author: 'Late' })
      expect(seen.size).toBe(items.length)
    })
    const ids = pages.flat().map(item => item.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of all) {
      if (expectedGone.has(id)) expect(ids).not.toContain(id)
      else expect(ids).toContain(id)
    }
    // Approved pending items appear exactly when they lie ahead of the cursor (older than it).
    const extra = ids.filter(id => !all.includes(id))
    for (const id of extra) expect(expectedAdded.has(id)).toBe(true)
    expect(extra.length).toBeGreaterThan(0)
    // And in the final list, each of them sits in its place by (createdAt, id).
    const after = (await pageThrough(server.url, 100)).flat()
    expect(after).toEqual([...after].sort(byNewest))
    for (const id of extra) expect(after.map(item => item.id)).toContain(id)
  })

  it('a malformed cursor is 400 INVALID_REQUEST', async () => {
    const valid = (await api(server.url, '/api/gallery?limit=1')).body.nextCursor as string
    for (const cursor of ['nope', '!!!', `${valid}x`, btoa('123.abc'), btoa('abc.def').replace(/=+$/, ''), 'x'.repeat(201)]) {
      const response = await api(server.url, `/api/gallery?cursor=${encodeURIComponent(cursor)}`)
      expect(response.status, cursor).toBe(400)
      expect(response.body.data.code).toBe('INVALID_REQUEST')
    }
    expect((await api(server.url, `/api/gallery?cursor=${valid}&cursor=${valid}`)).status).toBe(400)
  })

  it('limit outside 1–100 or not a number is 400', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '2.5', '']) {
      const response = await api(server.url, `/api/gallery?limit=${limit}`)
      expect(response.status, `limit=${limit}`).toBe(400)
      expect(response.body.data.code).toBe('INVALID_REQUEST')
    }
    expect((await api(server.url, '/api/gallery?limit=1')).body.items).toHaveLength(1)
    expect((await api(server.url, '/api/gallery?limit=100')).body.items).toHaveLength(100)
    expect((await api(server.url, '/api/gallery?page=2')).status).toBe(400)
  })
})

describe('the gallery never shows an original photo (it may carry the guest\'s GPS position)', () => {
  const server = useTestServer({ admin: true })

  it('lists an approved photo only once its display images exist; the cover waits too', async () => {
    const shown = await seedPhoto(server.url, { author: 'Derived' })
    // An approved photo whose derivation has not run yet, written as confirm leaves it: the
    // server itself gives no moment to look between confirm and derivation.
    const db = createClient({ url: `file:${server.dbPath}` })
    const now = Date.now()
    const id = 'waiting-for-derivation-0001'
    try {
      await db.execute({
        sql: `insert into uploads (id, status, kind, author, file_name, content_type, size, storage_key, created_at, confirmed_at, updated_at)
              values (?, 'approved', 'photo', 'Waiting', 'IMG.JPG', 'image/jpeg', 1234, ?, ?, ?, ?)`,
        args: [id, `orig/${id}-token.jpg`, now + 60_000, now, now],
      })
      expect((await api(server.url, '/api/gallery')).body.items.map((item: any) => item.id)).toEqual([shown.id])
      const record = await adminRecord(server.url, server.cookie, id)
      expect(record.body.url).toMatch(/\/media\/orig\/.+[?&]sig=/)
      expect((await api(server.url, `/api/admin/uploads/${id}/cover`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
      expect((await api(server.url, '/api/event')).body.cover).toBeNull()

      await db.execute({ sql: `update uploads set display_key = ?, thumb_key = ?, derived_at = ? where id = ?`, args: [`media/${id}-d-display.jpg`, `media/${id}-t-thumb.webp`, now, id] })
      const items = (await api(server.url, '/api/gallery')).body.items
      expect(items.map((item: any) => item.id)).toEqual([id, shown.id])
      expect(items[0]).toMatchObject({ url: expect.stringMatching(new RegExp(`/media/media/${id}-d-display\\.jpg$`)), thumbUrl: expect.stringMatching(/-t-thumb\.webp$/) })
      expect((await api(server.url, '/api/event')).body.cover).toEqual({ id, url: items[0].url, thumbUrl: items[0].thumbUrl, thumb2xUrl: items[0].thumb2xUrl })
    }
    finally {
      db.close()
    }
  })

  it('keeps a photo no display image could be made of out of the gallery and off the cover', async () => {
    // JPEG magic (so the sniff at confirm accepts it) and then nothing libvips can decode.
    const bytes = Buffer.concat([Buffer.from([0xFF, 0xD8, 0xFF, 0xE0]), Buffer.alloc(2000, 0x5A)])
    const broken = await seedPhoto(server.url, { author: 'Broken', bytes })
    expect(broken.status).toBe('approved')
    const record = await adminRecord(server.url, server.cookie, broken.id)
    expect(record.body.url).toMatch(/\/media\/orig\/.+[?&]sig=/)
    expect(record.body.thumbUrl).toBe(record.body.url)
    expect((await api(server.url, '/api/gallery?limit=100')).body.items.map((item: any) => item.id)).not.toContain(broken.id)
    const cover = await api(server.url, `/api/admin/uploads/${broken.id}/cover`, { method: 'POST', cookie: server.cookie })
    expect([cover.status, cover.body.data.code]).toEqual([409, 'NOT_ELIGIBLE'])
  })
})

describe('stats', () => {
  const server = useTestServer({ admin: true })
  const sizes: number[] = []

  it('start at zero', async () => {
    expect((await api(server.url, '/api/stats')).body).toEqual({ approved: 0, photos: 0, videos: 0 })
    expect((await api(server.url, '/api/admin/stats', { cookie: server.cookie })).body).toEqual({
      total: 0, pending: 0, approved: 0, rejected: 0, photos: 0, videos: 0, totalBytes: 0, lastUploadAt: null, perHour: [],
      messages: { total: 0, pending: 0, approved: 0, rejected: 0 },
      comments: { total: 0, pending: 0, approved: 0, rejected: 0 },
    })
  })

  it('count a known mix exactly, and never an unconfirmed upload', async () => {
    const seeded: Seeded[] = []
    // Approved: three photos and two videos; then one photo rejected.
    for (let i = 0; i < 3; i++) seeded.push(await seedPhoto(server.url))
    seeded.push(await seedVideo(server.url, { size: 3000 }), await seedVideo(server.url, { size: 5000 }))
    await api(server.url, `/api/admin/uploads/${seeded[0]!.id}/reject`, { method: 'POST', cookie: server.cookie })
    // Pending: one photo, one video.
    await setModeration(server.url, server.cookie, 'pre')
    seeded.push(await seedPhoto(server.url), await seedVideo(server.url, { size: 7000 }))
    await setModeration(server.url, server.cookie, 'post')
    sizes.push(...seeded.map(s => s.bytes.length))
    // Never counted: initialised only, and sent but never confirmed.
    await seedUnconfirmed(server.url)
    const sent = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'v.mp4', contentType: 'video/mp4', size: 999_999, durationSec: 2 } })
    expect(sent.status).toBe(201)

    expect((await api(server.url, '/api/stats')).body).toEqual({ approved: 4, photos: 2, videos: 2 })

    const list = (await api(server.url, '/api/admin/uploads?limit=200', { cookie: server.cookie })).body.items as any[]
    expect(list).toHaveLength(7)
    const hours = new Map<string, number>()
    for (const item of list) {
      const hour = `${item.createdAt.slice(0, 13)}:00:00.000Z`
      hours.set(hour, (hours.get(hour) ?? 0) + 1)
    }
    const stats = await api(server.url, '/api/admin/stats', { cookie: server.cookie })
    expect(stats.status).toBe(200)
    expect(stats.body).toEqual({
      total: 7,
      pending: 2,
      approved: 4,
      rejected: 1,
      photos: 4,
      videos: 3,
      totalBytes: sizes.reduce((a, b) => a + b, 0),
      lastUploadAt: list[0].createdAt,
      perHour: [...hours].sort(([a], [b]) => (a < b ? -1 : 1)).map(([hour, count]) => ({ hour, count })),
      messages: { total: 0, pending: 0, approved: 0, rejected: 0 },
      comments: { total: 0, pending: 0, approved: 0, rejected: 0 },
    })
    expect(stats.body.lastUploadAt).toBe(list.map(item => item.createdAt).sort().at(-1))
  })

  it('admin stats need a session', async () => {
    const response = await api(server.url, '/api/admin/stats')
    expect([response.status, response.body.data.code]).toEqual([401, 'UNAUTHENTICATED'])
  })
})
