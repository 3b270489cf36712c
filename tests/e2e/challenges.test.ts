import assert from 'node:assert/strict'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { adminRecord, derivationSettled, distinctJpeg, setModeration } from '../support/seed'
import { putBytes, uploadFile } from '../support/uploads'

const CHALLENGE_FIELDS = ['active', 'id', 'position', 'text']

describe('challenges', () => {
  const server = useTestServer({ admin: true })
  const admin = (method: string, path: string, json?: unknown) => api(server.url, path, { method, json, cookie: server.cookie })
  const create = (text: string) => admin('POST', '/api/admin/challenges', { text })

  /** A confirmed photo answering `challengeId`, once in the gallery (post-moderation). */
  async function answer(challengeId?: string) {
    const bytes = await distinctJpeg()
    const { init, confirm } = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, fileName: 'IMG.JPG', challengeId })
    assert.equal(confirm.status, 200)
    await derivationSettled(server.url)
    return init.id as string
  }
  const initWith = (fields: Record<string, unknown>, cookie?: string) => api(server.url, '/api/uploads/init', {
    method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: 100, ...fields }, cookie,
  })

  describe('admin CRUD', () => {
    it('creates a challenge switched on and last in the order, with exactly the contract fields (201)', async () => {
      const first = await create('  Uma selfie com a noiva ')
      expect(first.status).toBe(201)
      expect(Object.keys(first.body).sort()).toEqual(CHALLENGE_FIELDS)
      expect(first.body).toMatchObject({ text: 'Uma selfie com a noiva', active: true })
      const second = await create('O passo de dança mais ousado')
      expect(second.body.position).toBe(first.body.position + 1)
      const list = await admin('GET', '/api/admin/challenges')
      expect(list.body.items.map((c: any) => c.text)).toEqual(['Uma selfie com a noiva', 'O passo de dança mais ousado'])
      for (const id of [first.body.id, second.body.id]) expect((await admin('DELETE', `/api/admin/challenges/${id}`)).status).toBe(204)
      expect((await admin('GET', '/api/admin/challenges')).body.items).toEqual([])
    })

    it('edits text and active, refuses bad bodies with 400 INVALID_REQUEST, unknown ids with 404, no session with 401', async () => {
      const { body: made } = await create('Brinde')
      const off = await admin('PATCH', `/api/admin/challenges/${made.id}`, { active: false })
      expect([off.status, off.body.active, off.body.text]).toEqual([200, false, 'Brinde'])
      const renamed = await admin('PATCH', `/api/admin/challenges/${made.id}`, { text: 'O brinde' })
      expect([renamed.status, renamed.body.text, renamed.body.active]).toEqual([200, 'O brinde', false])
      for (const body of [{ text: '' }, { text: ' ' }, { text: 'x'.repeat(121) }, { active: 'no' }, { other: 1 }]) {
        const response = await admin('PATCH', `/api/admin/challenges/${made.id}`, body)
        expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
      }
      for (const body of [{}, { text: '' }, { text: 'ok', active: false }]) {
        const response = await admin('POST', '/api/admin/challenges', body)
        expect([response.status, response.body.data.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST'])
      }
      for (const [method, json] of [['PATCH', { text: 'X' }], ['DELETE', undefined]] as const) {
        const response = await admin(method, '/api/admin/challenges/nope', json)
        expect([response.status, response.body.data.code]).toEqual([404, 'NOT_FOUND'])
      }
      for (const [method, path] of [['GET', '/api/admin/challenges'], ['POST', '/api/admin/challenges'], ['PUT', '/api/admin/challenges/order']] as const) {
        const response = await api(server.url, path, { method, json: method === 'GET' ? undefined : {} })
        expect([response.status, response.body.data.code], path).toEqual([401, 'UNAUTHENTICATED'])
      }
      await admin('DELETE', `/api/admin/challenges/${made.id}`)
    })

    it('reorders with every id once, and refuses a list that drops or repeats one', async () => {
      const ids = [] as string[]
      for (const text of ['Um', 'Dois', 'Três']) ids.push((await create(text)).body.id)
      const reordered = await admin('PUT', '/api/admin/challenges/order', { ids: [ids[1], ids[2], ids[0]] })
      expect(reordered.status).toBe(200)
      expect(reordered.body.items.map((c: any) => [c.text, c.position])).toEqual([['Dois', 0], ['Três', 1], ['Um', 2]])
      for (const bad of [[ids[0]], [ids[0], ids[0], ids[1]], [...ids, 'x']]) {
        const response = await admin('PUT', '/api/admin/challenges/order', { ids: bad })
        expect([response.status, response.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      }
      for (const id of ids) await admin('DELETE', `/api/admin/challenges/${id}`)
    })
  })

  describe('answers', () => {
    let selfie: string, danca: string, off: string
    const selfieIds: string[] = []

    beforeAll(async () => {
      selfie = (await create('Uma selfie com a noiva')).body.id
      danca = (await create('O passo de dança mais ousado')).body.id
      off = (await create('Desligado')).body.id
      await admin('PATCH', `/api/admin/challenges/${off}`, { active: false })
      for (let i = 0; i < 3; i++) {
        selfieIds.unshift(await answer(selfie))
        await answer()
      }
      await answer(danca)
    })

    it('init takes an active challenge, refuses an inactive or unknown one (400 INVALID_REQUEST), and the records carry it', async () => {
      for (const challengeId of [off, 'unknown']) {
        const response = await initWith({ challengeId })
        expect([response.status, response.body.data.code], challengeId).toEqual([400, 'INVALID_REQUEST'])
      }
      expect((await adminRecord(server.url, server.cookie, selfieIds[0]!)).body.challengeId).toBe(selfie)
      const page = await admin('GET', `/api/admin/uploads?challenge=${selfie}`)
      expect(page.body.items.map((item: any) => item.id)).toEqual(selfieIds)
    })

    it('lists a challenge\'s answers in the gallery (?challenge=), with its own tag and paging', async () => {
      const first = await api(server.url, `/api/gallery?challenge=${selfie}&limit=2`)
      expect(first.status).toBe(200)
      const second = await api(server.url, `/api/gallery?challenge=${selfie}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      expect([...first.body.items, ...second.body.items].map((item: any) => item.id)).toEqual(selfieIds)
      expect(second.body.nextCursor).toBeNull()
      for (const item of first.body.items) expect(item.challengeId).toBe(selfie)
      const tag = first.headers.get('etag')!
      expect(tag).not.toBe((await api(server.url, '/api/gallery?limit=2')).headers.get('etag'))
      expect((await api(server.url, `/api/gallery?challenge=${selfie}&limit=2`, { headers: { 'if-none-match': tag } })).status).toBe(304)
      const both = await api(server.url, `/api/gallery?challenge=${selfie}&moment=x`)
      expect([both.status, both.body.data.code]).toEqual([400, 'INVALID_REQUEST'])
      expect((await api(server.url, '/api/gallery?challenge=unknown')).body).toEqual({ items: [], nextCursor: null })
    })

    it('GET /api/challenges lists the active prompts in order with counts, and without counts while the gallery is closed', async () => {
      const open = await api(server.url, '/api/challenges')
      expect(open.status).toBe(200)
      expect(open.headers.get('cache-control')).toBe('no-cache')
      expect(open.body.items).toEqual([
        { id: selfie, text: 'Uma selfie com a noiva', count: 3 },
        { id: danca, text: 'O passo de dança mais ousado', count: 1 },
      ])
      const tag = open.headers.get('etag')!
      expect((await api(server.url, '/api/challenges', { headers: { 'if-none-match': tag } })).status).toBe(304)

      const { screenKey } = (await admin('GET', '/api/admin/event')).body
      expect((await admin('PATCH', '/api/admin/event', { galleryMode: 'upload-only' })).status).toBe(200)
      try {
        for (const headers of [{}, { 'if-none-match': tag }] as Record<string, string>[]) {
          const closed = await api(server.url, '/api/challenges', { headers })
          expect(closed.status).toBe(200)
          expect(closed.body.items).toEqual([
            { id: selfie, text: 'Uma selfie com a noiva' },
            { id: danca, text: 'O passo de dança mais ousado' },
          ])
        }
        expect((await api(server.url, `/api/challenges?screenKey=${screenKey}`)).body.items[0].count).toBe(3)
      }
      finally {
        expect((await admin('PATCH', '/api/admin/event', { galleryMode: 'live' })).status).toBe(200)
      }
      // Pending answers are not counted.
      await setModeration(server.url, server.cookie, 'pre')
      await answer(danca)
      await setModeration(server.url, server.cookie, 'post')
      expect((await api(server.url, '/api/challenges')).body.items[1].count).toBe(1)
    })

    it('"my photos" items carry the challenge they answer, and only those that answer one', async () => {
      const guest = await api(server.url, '/api/uploads/mine')
      const cookie = guest.headers.get('set-cookie')!.split(';')[0]!
      const send = async (fields: Record<string, unknown>) => {
        const bytes = await distinctJpeg()
        const init = await initWith({ size: bytes.length, ...fields }, cookie)
        expect(init.status).toBe(201)
        expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
        expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST', cookie })).status).toBe(200)
        return init.body.id as string
      }
      const answered = await send({ challengeId: danca })
      const plain = await send({})
      const mine = await api(server.url, '/api/uploads/mine', { cookie })
      expect(mine.body.items.map((item: any) => [item.id, item.challengeId])).toEqual([[plain, undefined], [answered, danca]])
      expect(mine.body.items[0]).not.toHaveProperty('challengeId')
    })

    it('"my photos" names every challenge this device answered, beyond the page it lists', async () => {
      const guest = await api(server.url, '/api/uploads/mine')
      const cookie = guest.headers.get('set-cookie')!.split(';')[0]!
      expect(guest.body.answeredChallenges).toEqual([])
      const send = async (fields: Record<string, unknown>) => {
        const bytes = await distinctJpeg()
        const init = await initWith({ size: bytes.length, ...fields }, cookie)
        expect(init.status).toBe(201)
        expect((await putBytes(init.body.upload.url, bytes, init.body.upload.headers)).status).toBe(200)
        expect((await api(server.url, `/api/uploads/${init.body.id}/confirm`, { method: 'POST', cookie })).status).toBe(200)
        return init.body.id as string
      }
      // Two answers to one challenge, one to another, then plain photos that push them off the first page.
      await send({ challengeId: selfie })
      await send({ challengeId: danca })
      await send({ challengeId: selfie })
      const newest = [await send({}), await send({})]
      const first = await api(server.url, '/api/uploads/mine?limit=2', { cookie })
      expect(first.body.items.map((item: any) => item.id)).toEqual([...newest].reverse())
      expect(first.body.answeredChallenges).toEqual([selfie, danca].sort())
      // An upload begun but never confirmed answers nothing yet; another device's answers are not this one's.
      const toast = (await create('Um brinde')).body.id
      expect((await initWith({ size: 100, challengeId: toast }, cookie)).status).toBe(201)
      expect((await api(server.url, '/api/uploads/mine?limit=2', { cookie })).body.answeredChallenges).toEqual([selfie, danca].sort())
      expect((await api(server.url, '/api/uploads/mine')).body.answeredChallenges).toEqual([])
      expect((await admin('DELETE', `/api/admin/challenges/${toast}`)).status).toBe(204)
    })

    it('deleting a challenge leaves its answers answering nothing', async () => {
      const temp = (await create('Temporário')).body.id
      const id = await answer(temp)
      expect((await admin('DELETE', `/api/admin/challenges/${temp}`)).status).toBe(204)
      expect((await adminRecord(server.url, server.cookie, id)).body.challengeId).toBeNull()
      expect((await api(server.url, '/api/challenges')).body.items.map((c: any) => c.id)).not.toContain(temp)
    })
  })
})
