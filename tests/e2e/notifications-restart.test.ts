import { createClient } from '@libsql/client'
import { afterAll, describe, expect, it } from 'vitest'
import { api, login } from '../support/http'
import { startReceiver, type Receiver } from '../support/receiver'
import { setModeration } from '../support/seed'
import { startServer, type TestServer } from '../support/server'

/**
 * The queue of items not yet told is in the database: a crash in the middle of a batch loses
 * nothing, the next start sends it. One driver (no media involved).
 */
describe('notifications across a crash', () => {
  let server: TestServer | undefined
  let receiver: Receiver | undefined
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await receiver?.close()
  })

  it('items queued when the server was killed go out in one batch after the restart', async () => {
    receiver = await startReceiver()
    const env = { NOTIFY_BATCH_SECONDS: '5', SWEEP_INTERVAL_SECONDS: '0' }
    server = await startServer(env)
    const dir = server.dir
    const cookie = await login(server.url)
    await setModeration(server.url, cookie, 'pre')
    expect((await api(server.url, '/api/admin/event', { method: 'PATCH', cookie, json: { notifyUrl: `${receiver.url}/hook` } })).status).toBe(200)
    const ids: string[] = []
    for (const author of ['Ana', 'Bia']) ids.push((await api(server.url, '/api/guestbook', { method: 'POST', json: { author, text: 'Oi!' } })).body.id)

    const db = createClient({ url: `file:${server.dbPath}` })
    const deadline = Date.now() + 5000
    let queued = 0
    while (queued < 2 && Date.now() < deadline) {
      queued = Number((await db.execute('SELECT count(*) AS n FROM notify_queue')).rows[0]!.n)
      if (queued < 2) await new Promise(resolve => setTimeout(resolve, 25))
    }
    db.close()
    expect(queued).toBe(2)
    await server.stop('SIGKILL')
    expect(receiver.received).toHaveLength(0)

    server = await startServer(env, dir)
    const [post] = await receiver.waitFor(1, 20_000)
    const body = JSON.parse(post!.body.toString('utf8'))
    expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual([...ids].sort())
    expect(body.pending).toBe(2)
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(receiver.received).toHaveLength(1)
  }, 90_000)
})
