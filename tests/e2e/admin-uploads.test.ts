import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, seedPhoto, seedUnconfirmed, seedVideo, setModeration, type Seeded } from '../support/seed'
import { AUTHOR_MAX_LENGTH, MESSAGE_MAX_LENGTH, SEARCH_QUERY_MAX_LENGTH } from '../../shared/limits'

const ADMIN_UPLOAD_FIELDS = [
  'author', 'challengeId', 'commentCount', 'confirmedAt', 'contentType', 'createdAt', 'display', 'durationSec', 'fileName', 'hearts', 'height', 'id', 'isCover', 'kind',
  'message', 'momentId', 'originalUrl', 'publicImage', 'size', 'status', 'takenAt', 'thumb2xUrl', 'thumbUrl', 'updatedAt', 'url', 'videoCodec', 'width',
].sort()

describe('admin uploads', () => {
  const server = useTestServer({ admin: true, db: true })
  // The list's fixtures, created one after another (so in this order of age).
  const seeded: Record<string, Seeded> = {}
  let unconfirmed: string

  const call = (method: string, path: string, json?: unknown, withCookie = true) =>
    api(server.url, path, { method, json, cookie: withCookie ? server.cookie : undefined })
  const list = (query = '') => call('GET', `/api/admin/uploads${query}`)
  const ids = (response: { body: any }) => response.body.items.map((item: any) => item.id)
  const named = (...names: string[]) => names.map(name => seeded[name]!.id)

  beforeAll(async () => {
    const admin = (path: string) => call('POST', path)
    seeded.joao = await seedPhoto(server.url, { author: 'JOÃO Silva', message: 'Parabéns aos noivos' })
    seeded.maria = await seedPhoto(server.url, { author: 'Maria', message: '100% amor' })
    seeded.rejected = await seedPhoto(server.url, { author: 'AnaXBia', message: '1000 amor' })
    await admin(`/api/admin/uploads/${seeded.rejected.id}/reject`)
    seeded.video = await seedVideo(server.url, { author: 'maria', message: 'Vídeo da festa' })
    await setModeration(server.url, server.cookie, 'pre')
    seeded.underscore = await seedPhoto(server.url, { author: 'Ana_Bia', message: 'Felicidades' })
    seeded.pendingVideo = await seedVideo(server.url, { author: 'Pedro', message: 'joão dançando' })
    await setModeration(server.url, server.cookie, 'post')
    unconfirmed = await seedUnconfirmed(server.url, 'João')
  }, 60_000)

  describe('list', () => {
    it('lists confirmed uploads newest first with the admin record', async () => {
      const response = await list()
      expect(response.status).toBe(200)
      expect(ids(response)).toEqual(named('pendingVideo', 'underscore', 'video', 'rejected', 'maria', 'joao'))
      expect(response.body.total).toBe(6)
      expect(response.body.nextCursor).toBeNull()
      expect(ids(response)).not.toContain(unconfirmed)

      const joao = response.body.items.at(-1)
      expect(Object.keys(joao).sort()).toEqual(ADMIN_UPLOAD_FIELDS)
      expect(joao).toMatchObject({
        id: seeded.joao!.id, status: 'approved', kind: 'photo', author: 'JOÃO Silva', message: 'Parabéns aos noivos',
        fileName: 'IMG_0001.JPG', contentType: 'image/jpeg', size: seeded.joao!.bytes.length, durationSec: null, isCover: false,
      })
      for (const field of ['createdAt', 'confirmedAt', 'updatedAt']) expect(new Date(joao[field]).toISOString()).toBe(joao[field])
      // The original is handed to admins as a signed URL and fetches the exact bytes.
      expect(joao.originalUrl).toMatch(/[?&]sig=/)
      const original = await fetch(joao.originalUrl)
      expect(Buffer.from(await original.arrayBuffer()).equals(seeded.joao!.bytes)).toBe(true)
      expect(response.body.items[0]).toMatchObject({ kind: 'video', status: 'pending', durationSec: 3 })
    })

    it('filters by status and kind, alone and together, with the matching total', async () => {
      const cases: [string, string[]][] = [
        ['?status=all', named('pendingVideo', 'underscore', 'video', 'rejected', 'maria', 'joao')],
        ['?status=approved', named('video', 'maria', 'joao')],
        ['?status=pending', named('pendingVideo', 'underscore')],
        ['?status=rejected', named('rejected')],
        ['?kind=video', named('pendingVideo', 'video')],
        ['?kind=photo', named('underscore', 'rejected', 'maria', 'joao')],
        ['?status=approved&kind=photo', named('maria', 'joao')],
        ['?status=pending&kind=video', named('pendingVideo')],
        ['?status=rejected&kind=video', []],
      ]
      for (const [query, expected] of cases) {
        const response = await list(query)
        expect(ids(response), query).toEqual(expected)
        expect(response.body.total, query).toBe(expected.length)
      }
    })

    it('searches author and message as plain text, ignoring case and accents', async () => {
      const cases: [string, string[]][] = [
        ['joão', named('pendingVideo', 'joao')],
        ['JOAO', named('pendingVideo', 'joao')],
        ['Joao silva', named('joao')],
        ['parabens', named('joao')],
        ['VIDEO', named('video')],
        ['maria', named('video', 'maria')],
        // % and _ are literal characters, not wildcards.
        ['%', named('maria')],
        ['0%', named('maria')],
        ['_', named('underscore')],
        ['ana_bia', named('underscore')],
        ['a%a', []],
        ['\\', []],
        ['nobody', []],
      ]
      for (const [q, expected] of cases) {
        const response = await list(`?q=${encodeURIComponent(q)}`)
        expect(ids(response), q).toEqual(expected)
        expect(response.body.total, q).toBe(expected.length)
      }
    })

    it('combines search with the filters', async () => {
      expect(ids(await list('?q=jo%C3%A3o&kind=video'))).toEqual(named('pendingVideo'))
      expect(ids(await list('?q=joao&status=approved'))).toEqual(named('joao'))
      expect(ids(await list('?q=maria&status=approved&kind=photo'))).toEqual(named('maria'))
      expect(ids(await list('?q=amor&status=rejected'))).toEqual(named('rejected'))
      const page = await list('?q=a&status=all&limit=1')
      expect(page.body.items).toHaveLength(1)
      expect(page.body.total).toBe(6)
    })

    it('pages with a cursor; total counts every match on every page', async () => {
      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const response = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        expect(response.status).toBe(200)
        expect(response.body.total).toBe(6)
        seen.push(...ids(response))
        cursor = response.body.nextCursor
        pages++
      } while (cursor)
      expect(pages).toBe(3)
      expect(seen).toEqual(ids(await list()))

      const filtered = await list('?kind=photo&limit=3')
      const rest = await list(`?kind=photo&limit=3&cursor=${filtered.body.nextCursor}`)
      expect([...ids(filtered), ...ids(rest)]).toEqual(named('underscore', 'rejected', 'maria', 'joao'))
      expect(rest.body.nextCursor).toBeNull()
    })

    it('refuses bad queries with 400', async () => {
      for (const query of ['?status=deleted', '?kind=audio', '?limit=0', '?limit=201', '?limit=abc', '?cursor=nope', '?sort=asc', '?status=all&status=pending', `?q=${'x'.repeat(SEARCH_QUERY_MAX_LENGTH + 1)}`]) {
        const response = await list(query)
        expect(response.status, query).toBe(400)
        expect(response.body.data.code).toBe('INVALID_REQUEST')
      }
      expect((await list('?limit=200')).status).toBe(200)
    })
  })

  describe('authentication, unknown ids and bad bodies', () => {
    const single = (id: string) => [
      ['PATCH', `/api/admin/uploads/${id}`, {}],
      ['POST', `/api/admin/uploads/${id}/approve`, undefined],
      ['POST', `/api/admin/uploads/${id}/reject`, undefined],
      ['POST', `/api/admin/uploads/${id}/cover`, undefined],
      ['DELETE', `/api/admin/uploads/${id}`, undefined],
    ] as const

    it('every admin call is 401 UNAUTHENTICATED without a session, and changes nothing', async () => {
      const calls = [
        ['GET', '/api/admin/uploads', undefined],
        ['GET', '/api/admin/stats', undefined],
        ['GET', '/api/admin/export.zip', undefined],
        ['POST', '/api/admin/uploads/bulk', { ids: [seeded.joao!.id], action: 'delete' }],
        ...single(seeded.joao!.id),
      ] as const
      for (const [method, path, json] of calls) {
        const response = await call(method, path, json, false)
        expect(response.status, `${method} ${path}`).toBe(401)
        expect(response.body.data.code).toBe('UNAUTHENTICATED')
        // A forged cookie is no better.
        const forged = await api(server.url, path, { method, json, cookie: 'em_admin=eyJhbGciOiJub25lIn0.e30.' })
        expect(forged.status, `${method} ${path}`).toBe(401)
      }
      expect((await adminRecord(server.url, server.cookie, seeded.joao!.id)).body.status).toBe('approved')
    })

    it('unknown, malformed and unconfirmed ids are 404 NOT_FOUND', async () => {
      for (const id of ['unknown-id-123', 'a.b', 'x'.repeat(65), '%2e%2e', unconfirmed]) {
        for (const [method, path, json] of single(id)) {
          const response = await call(method, path, json)
          expect(response.status, `${method} ${path}`).toBe(404)
          expect(response.body.data.code).toBe('NOT_FOUND')
        }
      }
    })

    it('bad bodies are 400 INVALID_REQUEST with the validator issues', async () => {
      const id = seeded.joao!.id
      const bad: [string, string, unknown][] = [
        ['PATCH', `/api/admin/uploads/${id}`, { author: 42 }],
        ['PATCH', `/api/admin/uploads/${id}`, { author: 'x'.repeat(AUTHOR_MAX_LENGTH + 1) }],
        ['PATCH', `/api/admin/uploads/${id}`, { message: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) }],
        ['PATCH', `/api/admin/uploads/${id}`, { author: 'a\u0007b' }],
        ['PATCH', `/api/admin/uploads/${id}`, { status: 'approved' }],
        ['PATCH', `/api/admin/uploads/${id}`, ['author']],
        ['POST', `/api/admin/uploads/${id}/approve`, { force: true }],
        ['POST', `/api/admin/uploads/${id}/reject`, { reason: 'x' }],
        ['POST', `/api/admin/uploads/${id}/cover`, { id }],
        ['DELETE', `/api/admin/uploads/${id}`, { hard: true }],
        ['POST', '/api/admin/uploads/bulk', { ids: [], action: 'approve' }],
        ['POST', '/api/admin/uploads/bulk', { ids: Array.from({ length: 501 }, (_, i) => `id${i}`), action: 'approve' }],
        ['POST', '/api/admin/uploads/bulk', { ids: [id], action: 'archive' }],
        ['POST', '/api/admin/uploads/bulk', { ids: ['a/b'], action: 'approve' }],
        ['POST', '/api/admin/uploads/bulk', { ids: [id] }],
        ['POST', '/api/admin/uploads/bulk', { ids: [id], action: 'delete', extra: 1 }],
      ]
      for (const [method, path, json] of bad) {
        const response = await call(method, path, json)
        expect(response.status, `${method} ${path} ${JSON.stringify(json).slice(0, 60)}`).toBe(400)
        expect(response.body.data.code).toBe('INVALID_REQUEST')
        expect(Array.isArray(response.body.data.issues)).toBe(true)
      }
      const malformed = await api(server.url, `/api/admin/uploads/${id}`, { method: 'PATCH', body: '{"author":', headers: { 'content-type': 'application/json' }, cookie: server.cookie })
      expect([malformed.status, malformed.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      const record = (await adminRecord(server.url, server.cookie, id)).body
      expect(record).toMatchObject({ status: 'approved', author: 'JOÃO Silva' })
    })
  })

  describe('edit, approve, reject', () => {
    it('PATCH edits author and message (trimmed), answers the record, and search follows', async () => {
      const { id } = seeded.maria!
      const before = (await adminRecord(server.url, server.cookie, id)).body
      const response = await call('PATCH', `/api/admin/uploads/${id}`, { author: '  Mariá Édith ', message: 'Ótima festa\nobrigada' })
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ id, author: 'Mariá Édith', message: 'Ótima festa\nobrigada', status: 'approved' })
      expect(Object.keys(response.body).sort()).toEqual(ADMIN_UPLOAD_FIELDS)
      expect(response.body.updatedAt > before.updatedAt || response.body.updatedAt !== before.updatedAt).toBe(true)
      expect(ids(await list('?q=EDITH'))).toEqual([id])
      expect(ids(await list('?q=otima festa'))).toEqual([id])
      expect(ids(await list('?q=100%25'))).toEqual([])
      // One field alone leaves the other; an empty author is allowed, as at init.
      const author = await call('PATCH', `/api/admin/uploads/${id}`, { author: '' })
      expect(author.body).toMatchObject({ author: '', message: 'Ótima festa\nobrigada' })
      const restored = await call('PATCH', `/api/admin/uploads/${id}`, { author: 'Maria', message: '100% amor' })
      expect(restored.body).toMatchObject({ author: 'Maria', message: '100% amor' })
      // The public gallery shows the edit.
      const gallery = await api(server.url, '/api/gallery?limit=100')
      expect(gallery.body.items.find((item: any) => item.id === id)).toMatchObject({ author: 'Maria', message: '100% amor' })
    })

    it('approve and reject apply from any state and repeat harmlessly', async () => {
      const { id } = seeded.underscore!
      const approved = await call('POST', `/api/admin/uploads/${id}/approve`)
      expect(approved.status).toBe(200)
      expect(approved.body).toMatchObject({ id, status: 'approved' })
      expect(Object.keys(approved.body).sort()).toEqual(ADMIN_UPLOAD_FIELDS)
      const again = await call('POST', `/api/admin/uploads/${id}/approve`)
      expect(again.body).toMatchObject({ id, status: 'approved', updatedAt: approved.body.updatedAt, author: approved.body.author })
      expect((await api(server.url, '/api/gallery?limit=100')).body.items.map((i: any) => i.id)).toContain(id)

      const rejected = await call('POST', `/api/admin/uploads/${id}/reject`)
      expect(rejected.body).toMatchObject({ id, status: 'rejected' })
      const rejectedAgain = await call('POST', `/api/admin/uploads/${id}/reject`)
      expect(rejectedAgain.body).toMatchObject({ id, status: 'rejected', updatedAt: rejected.body.updatedAt })
      expect((await api(server.url, '/api/gallery?limit=100')).body.items.map((i: any) => i.id)).not.toContain(id)

      // Rejected → approved, and back to where the fixtures had it (pending is not an action).
      expect((await call('POST', `/api/admin/uploads/${id}/approve`)).body.status).toBe('approved')
      await server.db.execute({ sql: `UPDATE uploads SET status = 'pending' WHERE id = ?`, args: [id] })
      expect((await adminRecord(server.url, server.cookie, id)).body.status).toBe('pending')
    })
  })

  describe('cover', () => {
    const event = () => api(server.url, '/api/event')
    const adminEvent = () => call('GET', '/api/admin/event')

    it('is set on an approved photo, answers the event configuration, and shows publicly', async () => {
      const { id } = seeded.joao!
      const response = await call('POST', `/api/admin/uploads/${id}/cover`)
      expect(response.status).toBe(200)
      expect(response.body).toEqual((await adminEvent()).body)
      expect(response.body.coverUploadId).toBe(id)
      expect(Object.keys(response.body).sort()).toEqual([
        'allowAudio', 'allowVideos', 'coupleNames', 'coverUploadId', 'eventDate', 'galleryMode', 'galleryPin', 'guestDownloads', 'language',
        'maxAudioDurationSec', 'maxFileSizeBytes', 'maxUploadsPerGuest', 'maxVideoDurationSec', 'moderation',
        'notifyFormat', 'notifyLastStatus', 'notifyOn', 'notifySecret', 'notifyUrl', 'revealAt', 'screenInClosedMode', 'screenKey', 'screenSound', 'updatedAt',
      ])
      const cover = (await event()).body.cover
      expect(cover.id).toBe(id)
      expect(typeof cover.url).toBe('string')
      expect(cover).toHaveProperty('thumbUrl')
      expect((await adminRecord(server.url, server.cookie, id)).body.isCover).toBe(true)
      expect((await list('?q=joao%20silva')).body.items[0].isCover).toBe(true)
      expect((await adminRecord(server.url, server.cookie, seeded.maria!.id)).body.isCover).toBe(false)
    })

    it('is refused with 409 NOT_ELIGIBLE for a video, a pending or a rejected photo', async () => {
      for (const name of ['video', 'pendingVideo', 'underscore', 'rejected']) {
        const response = await call('POST', `/api/admin/uploads/${seeded[name]!.id}/cover`)
        expect(response.status, name).toBe(409)
        expect(response.body.data.code).toBe('NOT_ELIGIBLE')
      }
      expect((await adminEvent()).body.coverUploadId).toBe(seeded.joao!.id)
    })

    it('is cleared by rejecting the cover upload, and by a bulk reject', async () => {
      const { id } = seeded.joao!
      await call('POST', `/api/admin/uploads/${id}/cover`)
      expect((await call('POST', `/api/admin/uploads/${id}/reject`)).body.isCover).toBe(false)
      expect((await adminEvent()).body.coverUploadId).toBeNull()
      expect((await event()).body.cover).toBeNull()

      await call('POST', `/api/admin/uploads/${id}/approve`)
      expect((await call('POST', `/api/admin/uploads/${id}/cover`)).body.coverUploadId).toBe(id)
      const bulk = await call('POST', '/api/admin/uploads/bulk', { ids: [id], action: 'reject' })
      expect(bulk.body).toEqual({ action: 'reject', processed: [id], notFound: [] })
      expect((await adminEvent()).body.coverUploadId).toBeNull()
      await call('POST', `/api/admin/uploads/${id}/approve`)
      // Approving it again does not make it the cover again.
      expect((await event()).body.cover).toBeNull()
    })

    it('is cleared by deleting the cover upload, alone or in bulk', async () => {
      const first = await seedPhoto(server.url, { author: 'Capa' })
      await call('POST', `/api/admin/uploads/${first.id}/cover`)
      expect((await event()).body.cover.id).toBe(first.id)
      expect((await call('DELETE', `/api/admin/uploads/${first.id}`)).body).toEqual({ id: first.id, deleted: true })
      expect((await adminEvent()).body.coverUploadId).toBeNull()
      expect((await event()).body.cover).toBeNull()

      const second = await seedPhoto(server.url, { author: 'Capa 2' })
      await call('POST', `/api/admin/uploads/${second.id}/cover`)
      const bulk = await call('POST', '/api/admin/uploads/bulk', { ids: [second.id], action: 'delete' })
      expect(bulk.body).toEqual({ action: 'delete', processed: [second.id], notFound: [] })
      expect((await event()).body.cover).toBeNull()
    })
  })

  describe('bulk', () => {
    it('applies to the ids it finds and reports the others, once each', async () => {
      const a = await seedPhoto(server.url, { author: 'Bulk A' })
      const b = await seedVideo(server.url, { author: 'Bulk B' })
      const response = await call('POST', '/api/admin/uploads/bulk', {
        ids: ['missing-1', a.id, unconfirmed, b.id, a.id, 'missing-1'], action: 'reject',
      })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ action: 'reject', processed: [a.id, b.id], notFound: ['missing-1', unconfirmed] })
      for (const { id } of [a, b]) expect((await adminRecord(server.url, server.cookie, id)).body.status).toBe('rejected')

      const approve = await call('POST', '/api/admin/uploads/bulk', { ids: [a.id, b.id], action: 'approve' })
      expect(approve.body).toEqual({ action: 'approve', processed: [a.id, b.id], notFound: [] })
      for (const { id } of [a, b]) expect((await adminRecord(server.url, server.cookie, id)).body.status).toBe('approved')

      const none = await call('POST', '/api/admin/uploads/bulk', { ids: ['nope'], action: 'delete' })
      expect(none.body).toEqual({ action: 'delete', processed: [], notFound: ['nope'] })
      // The unconfirmed upload was not touched by any of it: it can still be confirmed or aborted.
      expect((await api(server.url, `/api/uploads/${unconfirmed}/abort`, { method: 'POST' })).body).toEqual({ id: unconfirmed, aborted: true })
      unconfirmed = await seedUnconfirmed(server.url, 'João')
    })

    it('is all or nothing: one refused row leaves every row as it was', async () => {
      await setModeration(server.url, server.cookie, 'pre')
      const batch = [await seedPhoto(server.url, { author: 'T1' }), await seedPhoto(server.url, { author: 'T2' }), await seedPhoto(server.url, { author: 'T3' })]
      await setModeration(server.url, server.cookie, 'post')
      const before = await Promise.all(batch.map(s => adminRecord(server.url, server.cookie, s.id)))
      expect(before.map(r => r.body.status)).toEqual(['pending', 'pending', 'pending'])

      // The database refuses the update of the last one, after the others were written.
      await server.db.execute(`CREATE TRIGGER refuse_one BEFORE UPDATE ON uploads WHEN NEW.id = '${batch[2]!.id}' BEGIN SELECT RAISE(ABORT, 'refused'); END;`)
      try {
        const response = await call('POST', '/api/admin/uploads/bulk', { ids: batch.map(s => s.id), action: 'approve' })
        expect(response.status).toBe(500)
        const after = await Promise.all(batch.map(s => adminRecord(server.url, server.cookie, s.id)))
        // (Derived images may land meanwhile; what moderation owns must not have moved.)
        const owned = (r: { body: any }) => ({ id: r.body.id, status: r.body.status, updatedAt: r.body.updatedAt })
        expect(after.map(owned)).toEqual(before.map(owned))
        const gallery = (await api(server.url, '/api/gallery?limit=100')).body.items.map((i: any) => i.id)
        for (const { id } of batch) expect(gallery).not.toContain(id)
      }
      finally {
        await server.db.execute('DROP TRIGGER refuse_one')
      }
      const retried = await call('POST', '/api/admin/uploads/bulk', { ids: batch.map(s => s.id), action: 'approve' })
      expect(retried.body.processed).toEqual(batch.map(s => s.id))
    })

    it('is one transaction: a failure in a later statement undoes the earlier ones', async () => {
      // Rejecting writes the statuses first, then clears the cover; refuse the second write.
      const cover = await seedPhoto(server.url, { author: 'Cover' })
      const other = await seedPhoto(server.url, { author: 'Other' })
      await call('POST', `/api/admin/uploads/${cover.id}/cover`)
      await server.db.execute(`CREATE TRIGGER refuse_cover BEFORE UPDATE ON event_settings BEGIN SELECT RAISE(ABORT, 'refused'); END;`)
      try {
        const response = await call('POST', '/api/admin/uploads/bulk', { ids: [other.id, cover.id], action: 'reject' })
        expect(response.status).toBe(500)
      }
      finally {
        await server.db.execute('DROP TRIGGER refuse_cover')
      }
      for (const { id } of [cover, other]) expect((await adminRecord(server.url, server.cookie, id)).body.status).toBe('approved')
      expect((await api(server.url, '/api/event')).body.cover.id).toBe(cover.id)
    })
  })
})
