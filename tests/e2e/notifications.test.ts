import { createHmac } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { importJWK, jwtVerify } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { decryptPush, pushClient } from '../support/push-decrypt'
import { startReceiver, type Receiver } from '../support/receiver'
import { distinctJpeg, seedPhoto, setModeration } from '../support/seed'
import { uploadFile } from '../support/uploads'

/*
 * Notifications touch no storage of their own (an upload's thumbnail is only an address): one
 * driver. Batches close after NOTIFY_BATCH_SECONDS; 2 rather than 1 here so that three uploads
 * sent together still share a batch on a machine whose load stretches each request.
 */
const BATCH_MS = 2000

const hmac = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

describe('notifications for the couple', () => {
  const server = useTestServer({ admin: true, db: true, env: { NOTIFY_BATCH_SECONDS: String(BATCH_MS / 1000) } })
  const admin = (path: string, init: Parameters<typeof api>[2] = {}) => api(server.url, path, { ...init, cookie: server.cookie })
  const configure = async (fields: Record<string, unknown>) => {
    const response = await admin('/api/admin/event', { method: 'PATCH', json: fields })
    expect(response.status).toBe(200)
    return response.body
  }
  const message = async (author: string) => {
    const response = await api(server.url, '/api/guestbook', { method: 'POST', json: { author, text: 'Parabéns!' } })
    expect(response.status).toBe(201)
    return response.body.id as string
  }
  let receiver: Receiver

  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })
  beforeEach(async () => {
    // Whatever an earlier test left queued goes out (or gives up) before this one counts.
    await sleep(50)
    receiver.clear()
  })

  it('the admin reads the notification fields and a webhook secret; the public event shows none of them', async () => {
    const { status, body } = await admin('/api/admin/event')
    expect(status).toBe(200)
    expect(body).toMatchObject({ notifyUrl: null, notifyFormat: 'json', notifyOn: 'pending', notifyLastStatus: null })
    expect(body.notifySecret).toMatch(/^[\w-]{22}$/)
    const publicInfo = await api(server.url, '/api/event')
    for (const field of ['notifyUrl', 'notifyFormat', 'notifyOn', 'notifySecret', 'notifyLastStatus']) expect(publicInfo.body).not.toHaveProperty(field)
  })

  it('refuses link-local and cloud metadata receivers with 400 INVALID_REQUEST, and other than http(s)', async () => {
    for (const notifyUrl of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/hook',
      'http://[febf:ffff::1]:8080/',
      'http://[::ffff:169.254.169.254]/',
      // WHATWG URLs read a bare number as an IPv4 address: 169.254.169.254.
      'http://2852039166/',
      'ftp://127.0.0.1/',
      'not a url',
    ]) {
      const response = await admin('/api/admin/event', { method: 'PATCH', json: { notifyUrl } })
      expect(response.status, notifyUrl).toBe(400)
      expect(response.body.data.code).toBe('INVALID_REQUEST')
      expect(response.body.data.issues[0].path).toEqual(['notifyUrl'])
    }
    expect((await admin('/api/admin/event')).body.notifyUrl).toBeNull()
    const bad = await admin('/api/admin/event', { method: 'PATCH', json: { notifyFormat: 'email' } })
    expect(bad.status).toBe(400)
    // Loopback stays allowed: the venue's own ntfy.
    expect((await configure({ notifyUrl: `${receiver.url}/hook` })).notifyUrl).toBe(`${receiver.url}/hook`)
  })

  it('json: several new items in one signed POST; the next batch waits its turn', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const { notifySecret } = await configure({ notifyUrl: `${receiver.url}/hook`, notifyFormat: 'json', notifyOn: 'pending' })
    const ids = await Promise.all(['Ana', 'Bia', 'Caio'].map(message))
    const [post] = await receiver.waitFor(1)
    await sleep(BATCH_MS / 2)
    expect(receiver.received).toHaveLength(1)
    expect(post!.method).toBe('POST')
    expect(post!.path).toBe('/hook')
    expect(post!.headers['content-type']).toBe('application/json')
    expect(post!.headers['x-event-media-signature']).toBe(hmac(notifySecret, post!.body))
    const body = JSON.parse(post!.body.toString('utf8'))
    expect(Object.keys(body).sort()).toEqual(['adminUrl', 'items', 'pending', 'type'])
    expect(body.type).toBe('event-media.new')
    expect(body.adminUrl).toBe(`${server.url}/admin`)
    expect(body.pending).toBe(3)
    expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual([...ids].sort())
    expect(body.items.find((item: { id: string }) => item.id === ids[0])).toEqual({ id: ids[0], kind: 'message', author: 'Ana', thumbUrl: null })

    // At most one notification per NOTIFY_BATCH_SECONDS.
    await message('Davi')
    const [, next] = await receiver.waitFor(2)
    expect(next!.at - post!.at).toBeGreaterThanOrEqual(BATCH_MS - 100)
    expect(JSON.parse(next!.body.toString('utf8')).pending).toBe(4)
  })

  it('ntfy: a plain text in the event\'s language with an encoded Title and the admin as Click', async () => {
    await configure({ notifyFormat: 'ntfy', language: 'pt-BR', coupleNames: 'Ana & João' })
    await Promise.all([seedPhoto(server.url), seedPhoto(server.url), seedPhoto(server.url)])
    const [post] = await receiver.waitFor(1)
    expect(post!.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(post!.body.toString('utf8')).toBe('3 novas fotos esperam aprovação')
    expect(post!.headers.title).toBe(`=?UTF-8?B?${Buffer.from('Ana & João: novidades').toString('base64')}?=`)
    expect(post!.headers.click).toBe(`${server.url}/admin`)
    expect(post!.headers['x-event-media-signature']).toBeUndefined()

    await configure({ language: 'en', coupleNames: 'Ana and Joe' })
    await message('Eva')
    const [, english] = await receiver.waitFor(2)
    expect(english!.body.toString('utf8')).toBe('1 new message awaits approval')
    expect(english!.headers.title).toBe('Ana and Joe: what\'s new')
    await configure({ language: 'pt-BR', notifyFormat: 'json' })
  })

  it('"pending" hears nothing of what post-moderation shows at once; "all" hears of it, photos with their thumbnail', async () => {
    await setModeration(server.url, server.cookie, 'post')
    await message('Fábio')
    await sleep(BATCH_MS + 1000)
    expect(receiver.received).toHaveLength(0)

    await configure({ notifyOn: 'all' })
    const photo = await seedPhoto(server.url, { author: 'Gil' })
    const [post] = await receiver.waitFor(1)
    const body = JSON.parse(post!.body.toString('utf8'))
    expect(body.items).toEqual([{ id: photo.id, kind: 'photo', author: 'Gil', thumbUrl: expect.stringMatching(new RegExp(`^${server.url}/media/.+`)) }])
    await configure({ notifyOn: 'pending' })
    await setModeration(server.url, server.cookie, 'pre')
  })

  it('a guest\'s comment waiting for moderation is announced as a comment, and counts among the pending', async () => {
    await setModeration(server.url, server.cookie, 'post')
    const photo = await seedPhoto(server.url, { author: 'Iara' })
    await setModeration(server.url, server.cookie, 'pre')
    await configure({ notifyUrl: `${receiver.url}/hook`, notifyFormat: 'json', notifyOn: 'pending' })
    await sleep(BATCH_MS + 500)
    receiver.clear()
    const before = (await admin('/api/admin/comments?status=pending')).body.total as number
    const posted = await api(server.url, `/api/gallery/${photo.id}/comments`, { method: 'POST', json: { author: 'Hugo', text: 'Que linda!' } })
    expect(posted.status).toBe(201)
    expect(posted.body.status).toBe('pending')
    const [post] = await receiver.waitFor(1)
    const body = JSON.parse(post!.body.toString('utf8'))
    expect(body.items).toEqual([{ id: posted.body.id, kind: 'comment', author: 'Hugo', thumbUrl: null }])
    const pendingComments = (await admin('/api/admin/comments?status=pending')).body.total as number
    expect(pendingComments).toBe(before + 1)
    expect(body.pending).toBeGreaterThanOrEqual(pendingComments)
  })

  it('a failed delivery is tried again about 2 s later with the same items, and the last status says so', async () => {
    receiver.answerWith(500)
    const id = await message('Hugo')
    const [first, second] = await receiver.waitFor(2, 20_000)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900)
    expect(second!.at - first!.at).toBeLessThan(6000)
    expect(JSON.parse(second!.body.toString('utf8')).items.map((item: { id: string }) => item.id)).toEqual([id])
    expect(second!.body.equals(first!.body)).toBe(true)
    await sleep(200)
    const { body } = await admin('/api/admin/event')
    expect(body.notifyLastStatus).toEqual({ at: expect.any(String), status: 200, error: null, attempt: 2, items: 1 })
  })

  it('a batch that keeps failing is tried again after about 2, 8, 30 and 120 s, and given up after its fifth try', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    await configure({ notifyUrl: `${receiver.url}/hook`, notifyFormat: 'json', notifyOn: 'pending' })
    const itemsOf = (post: { body: Buffer }) => JSON.parse(post.body.toString('utf8')).items.map((item: { id: string }) => item.id) as string[]
    const row = async (id: string) => (await server.db.execute({ sql: 'SELECT attempts, next_attempt_at AS next FROM notify_queue WHERE id = ?', args: [id] })).rows[0]
    const rowOnceTried = async (id: string, attempts: number) => {
      await expect.poll(async () => (await row(id))?.attempts, { timeout: 10_000 }).toBe(attempts)
      return Number((await row(id))!.next)
    }
    receiver.answerWith(...Array.from({ length: 12 }, () => 500))
    const kai = await message('Kai')
    // The first three tries, waited for in real time: 2 s, then 8 s apart.
    const [first, second, third] = await receiver.waitFor(3, 40_000)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900)
    expect(second!.at - first!.at).toBeLessThan(6000)
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(7900)
    expect(third!.at - second!.at).toBeLessThan(12_000)
    expect([first, second, third].map(post => itemsOf(post!))).toEqual([[kai], [kai], [kai]])
    // The fourth waits 30 s: read from the queue, then brought forward (a new item arms the timer again).
    expect((await rowOnceTried(kai, 3)) - third!.at).toBeGreaterThan(28_500)
    expect(Number((await row(kai))!.next) - third!.at).toBeLessThan(30_500)
    await server.db.execute({ sql: 'UPDATE notify_queue SET next_attempt_at = ? WHERE id = ?', args: [Date.now(), kai] })
    const lia = await message('Lia')
    const [, , , fourth] = await receiver.waitFor(4, 10_000)
    // Lia's batch is not due yet: the retry goes alone.
    expect(itemsOf(fourth!)).toEqual([kai])
    // The fifth waits 120 s; brought forward again, it fails and is the last.
    expect((await rowOnceTried(kai, 4)) - fourth!.at).toBeGreaterThan(118_500)
    expect(Number((await row(kai))!.next) - fourth!.at).toBeLessThan(120_500)
    await server.db.execute({ sql: 'UPDATE notify_queue SET next_attempt_at = ? WHERE id = ?', args: [Date.now(), kai] })
    await expect.poll(() => receiver.received.findIndex((post, index) => index > 3 && itemsOf(post).includes(kai)), { timeout: 15_000 }).toBeGreaterThan(3)
    const fifth = receiver.received.findIndex((post, index) => index > 3 && itemsOf(post).includes(kai))
    await expect.poll(async () => (await row(kai)) ?? null, { timeout: 10_000 }).toBeNull()
    // Lia's own retries go on, without Kai.
    await receiver.waitFor(fifth + 2, 20_000)
    expect(receiver.received.slice(fifth + 1).map(post => itemsOf(post).includes(kai))).not.toContain(true)
    expect(receiver.received.slice(fifth + 1).some(post => itemsOf(post).includes(lia))).toBe(true)
    await server.db.execute('DELETE FROM notify_queue')
  }, 120_000)

  it('a receiver that never answers holds up no guest: uploads and messages are answered while its delivery hangs', async () => {
    const held: ServerResponse[] = []
    const hanging = createServer((request, response) => {
      request.resume()
      held.push(response)
    })
    await new Promise<void>(resolve => hanging.listen(0, '127.0.0.1', resolve))
    try {
      await setModeration(server.url, server.cookie, 'pre')
      await configure({ notifyUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`, notifyFormat: 'json', notifyOn: 'pending' })
      await message('Nina')
      await expect.poll(() => held.length, { timeout: 15_000 }).toBe(1)
      // The delivery is open and unanswered; guests are answered meanwhile.
      const bytes = await distinctJpeg()
      const photo = await uploadFile(server.url, bytes, { contentType: 'image/jpeg', size: bytes.length, author: 'Otto', fileName: 'IMG_0002.JPG' })
      expect(photo.confirm.status).toBe(200)
      expect(photo.confirm.body.status).toBe('pending')
      const sent = await api(server.url, '/api/guestbook', { method: 'POST', json: { author: 'Paula', text: 'Felicidades!' } })
      expect(sent.status).toBe(201)
      // Still the one delivery, still open: the server gives up on a receiver only after 10 s.
      expect(held).toHaveLength(1)
      expect(held[0]!.socket?.destroyed).toBe(false)
    }
    finally {
      // Without a receiver the held batch's retry is dropped, not posted to the next test's receiver.
      await configure({ notifyUrl: null })
      for (const response of held) response.destroy()
      hanging.closeAllConnections()
      await new Promise<void>(resolve => hanging.close(() => resolve()))
      await expect.poll(async () => (await server.db.execute('SELECT count(*) AS n FROM notify_queue')).rows[0]!.n, { timeout: 15_000 }).toBe(0)
      await configure({ notifyUrl: `${receiver.url}/hook` })
    }
  })

  it('notify-test answers the receiver\'s status at once; without a receiver it is 400', async () => {
    receiver.answerWith(202)
    const response = await admin('/api/admin/event/notify-test', { method: 'POST' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 202 })
    const [post] = await receiver.waitFor(1)
    expect(JSON.parse(post!.body.toString('utf8'))).toMatchObject({ type: 'event-media.new', items: [] })
    expect((await admin('/api/admin/event')).body.notifyLastStatus).toMatchObject({ status: 202, attempt: 1, items: 0 })

    await configure({ notifyUrl: null })
    const none = await admin('/api/admin/event/notify-test', { method: 'POST' })
    expect(none.status).toBe(400)
    expect(none.body.data.code).toBe('INVALID_REQUEST')
    await configure({ notifyUrl: `${receiver.url}/hook` })
  })

  it('a rotated secret signs what comes next; the old one no longer verifies', async () => {
    const before = (await admin('/api/admin/event')).body.notifySecret
    const rotated = await admin('/api/admin/event/notify-secret', { method: 'POST' })
    expect(rotated.status).toBe(200)
    expect(rotated.body.notifySecret).toMatch(/^[\w-]{22}$/)
    expect(rotated.body.notifySecret).not.toBe(before)
    expect((await admin('/api/admin/event')).body.notifySecret).toBe(rotated.body.notifySecret)
    expect((await api(server.url, '/api/admin/event/notify-secret', { method: 'POST' })).status).toBe(401)

    await admin('/api/admin/event/notify-test', { method: 'POST' })
    const [post] = await receiver.waitFor(1)
    expect(post!.headers['x-event-media-signature']).toBe(hmac(rotated.body.notifySecret, post!.body))
    expect(post!.headers['x-event-media-signature']).not.toBe(hmac(before, post!.body))
  })

  it('checks the address again at send time: a link-local receiver already stored is never posted to', async () => {
    for (const address of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/']) {
      await server.db.execute({ sql: 'UPDATE event_settings SET notify_url = ?', args: [address] })
      const response = await admin('/api/admin/event/notify-test', { method: 'POST' })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ status: null, error: expect.stringMatching(/link-local/) })
    }
    await configure({ notifyUrl: `${receiver.url}/hook` })
  })

  describe('Web Push to the admin\'s devices', () => {
    let pushService: Receiver
    beforeAll(async () => {
      pushService = await startReceiver()
    })
    afterAll(async () => {
      await pushService.close()
    })
    // A device is forgotten once the server has read the push service's answer, after the push arrived.
    const subscriptionCount = async () => Number((await server.db.execute('SELECT count(*) AS n FROM push_subscriptions')).rows[0]!.n)

    it('pushes each batch with VAPID and aes128gcm; a 410 forgets the subscription', async () => {
      await configure({ notifyUrl: null, coupleNames: 'Ana & João', language: 'pt-BR' })
      const key = await admin('/api/admin/push/key')
      expect(key.status).toBe(200)
      expect(Buffer.from(key.body.publicKey, 'base64url')).toHaveLength(65)
      // Made once and kept.
      expect((await admin('/api/admin/push/key')).body.publicKey).toBe(key.body.publicKey)
      expect((await api(server.url, '/api/admin/push/key')).status).toBe(401)

      const client = pushClient()
      const endpoint = `${pushService.url}/push/device-1`
      const bad = await admin('/api/admin/push/subscriptions', { method: 'POST', json: { endpoint: 'not a url', keys: client.keys } })
      expect(bad.status).toBe(400)
      expect(bad.body.data.code).toBe('INVALID_REQUEST')
      const subscribed = await admin('/api/admin/push/subscriptions', { method: 'POST', json: { endpoint, expirationTime: null, keys: client.keys } })
      expect(subscribed.status).toBe(201)

      const id = await message('Iara')
      const [push] = await pushService.waitFor(1)
      expect(push!.method).toBe('POST')
      expect(push!.path).toBe('/push/device-1')
      expect(push!.headers['content-encoding']).toBe('aes128gcm')
      expect(Number(push!.headers.ttl)).toBeGreaterThan(0)
      const vapid = push!.headers.authorization!.match(/^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/)
      expect(vapid).not.toBeNull()
      expect(vapid![2]).toBe(key.body.publicKey)
      const point = Buffer.from(key.body.publicKey, 'base64url')
      const publicKey = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256')
      const { payload: claims } = await jwtVerify(vapid![1]!, publicKey, { audience: pushService.url })
      expect(claims.sub).toBe('mailto:admin@example.com')
      expect(claims.exp! * 1000).toBeGreaterThan(Date.now())

      const payload = JSON.parse(decryptPush(client, push!.body))
      expect(payload).toEqual({ type: 'event-media.new', pending: expect.any(Number), title: 'Ana & João: novidades', body: '1 novo recado espera aprovação', url: `${server.url}/admin` })
      expect(payload.pending).toBeGreaterThanOrEqual(1)
      const row = await server.db.execute({ sql: 'SELECT count(*) AS n FROM notify_queue WHERE id = ?', args: [id] })
      expect(row.rows[0]!.n).toBe(0)

      pushService.answerWith(410)
      await message('Jonas')
      await pushService.waitFor(2)
      await expect.poll(subscriptionCount, { timeout: 5000 }).toBe(0)
    })

    it('a 404 from the push service forgets the subscription too; a 500 keeps it', async () => {
      await configure({ notifyUrl: null })
      const deviceA = `${pushService.url}/push/device-a`
      const deviceB = `${pushService.url}/push/device-b`
      for (const endpoint of [deviceA, deviceB]) {
        expect((await admin('/api/admin/push/subscriptions', { method: 'POST', json: { endpoint, keys: pushClient().keys } })).status).toBe(201)
      }
      pushService.clear()
      // One push to each device.
      pushService.answerWith(500, 500)
      await message('Quitéria')
      const pushes = await pushService.waitFor(2)
      expect(pushes.map(push => push.path).sort()).toEqual(['/push/device-a', '/push/device-b'])
      await sleep(200)
      // Both were refused with a 500: both stay.
      expect((await server.db.execute('SELECT endpoint FROM push_subscriptions ORDER BY endpoint')).rows.map(r => r.endpoint)).toEqual([deviceA, deviceB])
      pushService.answerWith(404, 404)
      // Both answered 404 (the browser dropped them): both are forgotten.
      await message('Rui')
      await pushService.waitFor(4)
      await expect.poll(subscriptionCount, { timeout: 5000 }).toBe(0)
      await server.db.execute('DELETE FROM notify_queue')
    })

    it('a device unsubscribes with DELETE and its endpoint: 204', async () => {
      const client = pushClient()
      const endpoint = `${pushService.url}/push/device-2`
      expect((await admin('/api/admin/push/subscriptions', { method: 'POST', json: { endpoint, keys: client.keys } })).status).toBe(201)
      expect((await server.db.execute('SELECT endpoint FROM push_subscriptions')).rows.map(r => r.endpoint)).toEqual([endpoint])
      const removed = await admin('/api/admin/push/subscriptions', { method: 'DELETE', json: { endpoint } })
      expect(removed.status).toBe(204)
      expect((await server.db.execute('SELECT endpoint FROM push_subscriptions')).rows).toHaveLength(0)
      expect((await api(server.url, '/api/admin/push/subscriptions', { method: 'DELETE', json: { endpoint } })).status).toBe(401)
    })
  })
})
