import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { seedPhoto, seedUnconfirmed, setModeration, type Seeded } from '../support/seed'
import { startServer, type TestServer } from '../support/server'

type Path = 'gallery' | 'galleryCursor' | 'event' | 'stats' | 'adminUploads' | 'adminStats'
const PUBLIC_PATHS: Path[] = ['gallery', 'galleryCursor', 'event', 'stats']
const ALL_PATHS: Path[] = [...PUBLIC_PATHS, 'adminUploads', 'adminStats']
const ADMIN_PATHS: Path[] = ['adminUploads', 'adminStats']
/** What an upload's changes move: every answer but the event's, which follows the settings and the cover only. */
const ITEM_PATHS: Path[] = ALL_PATHS.filter(path => path !== 'event')

/** A GET as it leaves node:http: no decompression, the exact bytes and headers the server sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number, headers: Record<string, string | string[] | undefined>, bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', chunk => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }))
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

describe('conditional answers (ETag, 304) on two instances sharing one database', () => {
  // The sweeper runs every second on both instances (the sweeper case below).
  const server = useTestServer({ admin: true, db: true, env: { SWEEP_INTERVAL_SECONDS: '1' } })
  let second: TestServer
  let oldest: Seeded
  let cursor: string
  const seeded: Seeded[] = []

  const instances = () => [{ name: 'first', url: server.url }, { name: 'second', url: second.url }]

  function pathOf(path: Path): string {
    switch (path) {
      case 'gallery': return '/api/gallery?limit=3'
      case 'galleryCursor': return `/api/gallery?limit=3&cursor=${encodeURIComponent(cursor)}`
      case 'event': return '/api/event'
      case 'stats': return '/api/stats'
      case 'adminUploads': return '/api/admin/uploads?limit=50'
      case 'adminStats': return '/api/admin/stats'
    }
  }

  async function get(base: string, path: Path, etag?: string) {
    const headers: Record<string, string> = etag ? { 'if-none-match': etag } : {}
    return api(base, pathOf(path), { headers, cookie: ADMIN_PATHS.includes(path) ? server.cookie : undefined })
  }

  /** The current tag of every path (the same on both instances: one database, one configuration). */
  async function tags(paths: Path[] = ALL_PATHS): Promise<Map<Path, string>> {
    const result = new Map<Path, string>()
    for (const path of paths) {
      const [a, b] = await Promise.all(instances().map(instance => get(instance.url, path)))
      expect(a!.status).toBe(200)
      expect(a!.headers.get('etag')).toMatch(/^W\/".+"$/)
      expect(b!.headers.get('etag')).toBe(a!.headers.get('etag'))
      result.set(path, a!.headers.get('etag')!)
    }
    return result
  }

  /** Each path answers 200 with a new tag on both instances, given the tag from before the change; the bodies, by instance. */
  async function expectChanged(before: Map<Path, string>, paths: Path[]) {
    const bodies = new Map<string, any>()
    for (const path of paths) {
      for (const instance of instances()) {
        const response = await get(instance.url, path, before.get(path))
        expect(response.status, `${path} on the ${instance.name} instance`).toBe(200)
        expect(response.headers.get('etag')).not.toBe(before.get(path))
        bodies.set(`${instance.name}:${path}`, response.body)
      }
    }
    return bodies
  }

  async function expectUnchanged(before: Map<Path, string>, paths: Path[]) {
    for (const path of paths) {
      for (const instance of instances()) {
        const response = await get(instance.url, path, before.get(path))
        expect(response.status, `${path} on the ${instance.name} instance`).toBe(304)
      }
    }
  }

  /** An upload's change: every answer that lists items changes, the event's stays. */
  async function expectItemsChanged(before: Map<Path, string>) {
    const bodies = await expectChanged(before, ITEM_PATHS)
    await expectUnchanged(before, ['event'])
    return bodies
  }

  const galleryIds = (bodies: Map<string, any>, instance: string, path: Path = 'gallery') => bodies.get(`${instance}:${path}`).items.map((item: any) => item.id)

  beforeAll(async () => {
    // The same public address, as instances behind one load balancer have.
    second = await startServer({ PUBLIC_BASE_URL: server.env.PUBLIC_BASE_URL, SWEEP_INTERVAL_SECONDS: '1' }, server.dir)
    await setModeration(server.url, server.cookie, 'post')
    for (let i = 0; i < 6; i++) seeded.push(await seedPhoto(server.url, { author: `Guest ${i}` }))
    oldest = seeded[0]!
    const first = await api(server.url, '/api/gallery?limit=3')
    cursor = first.body.nextCursor
    expect(cursor).toEqual(expect.any(String))
  }, 60_000)

  afterAll(async () => {
    await second?.stop()
  })

  it('answers 304 with no body to a matching If-None-Match, in a list or weak, on either instance', async () => {
    const before = await tags()
    for (const path of ALL_PATHS) {
      const tag = before.get(path)!
      for (const header of [tag, tag.replace(/^W\//, ''), `W/"other", ${tag}`, '*']) {
        for (const instance of instances()) {
          const response = await rawGet(`${instance.url}${pathOf(path)}`, { 'if-none-match': header, ...(ADMIN_PATHS.includes(path) ? { cookie: server.cookie } : {}) })
          expect(response.status, `${path} ${header}`).toBe(304)
          expect(response.bytes.length).toBe(0)
          expect(response.headers.etag).toBe(tag)
        }
      }
      expect((await get(server.url, path, 'W/"something-else"')).status).toBe(200)
    }
  })

  it('lets browsers keep public answers but revalidate them (no-cache); admin answers stay private, no-store', async () => {
    for (const path of ALL_PATHS) {
      const response = await get(server.url, path)
      expect(response.headers.get('cache-control'), path).toBe(ADMIN_PATHS.includes(path) ? 'private, no-store' : 'no-cache')
      const unchanged = await get(server.url, path, response.headers.get('etag')!)
      expect(unchanged.headers.get('cache-control'), path).toBe(ADMIN_PATHS.includes(path) ? 'private, no-store' : 'no-cache')
    }
  })

  it('keeps every tag while guests only start uploads (unconfirmed rows are nobody\'s answer)', async () => {
    const before = await tags()
    await seedUnconfirmed(server.url)
    await seedUnconfirmed(second.url)
    await expectUnchanged(before, ALL_PATHS)
  })

  it('a confirm (post-moderation) changes every answer but the event\'s, on both instances', async () => {
    const before = await tags()
    const photo = await seedPhoto(second.url, { author: 'Recém-chegada' })
    seeded.push(photo)
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) {
      expect(galleryIds(bodies, instance)[0]).toBe(photo.id)
      expect(bodies.get(`${instance}:stats`).approved).toBe(seeded.length)
      expect(bodies.get(`${instance}:adminStats`).total).toBe(seeded.length)
    }
  })

  it('a confirm under pre-moderation changes the admin answers only', async () => {
    await setModeration(server.url, server.cookie, 'pre')
    const before = await tags()
    const pending = await seedPhoto(server.url, { author: 'Aguardando' })
    await expectUnchanged(before, ['gallery', 'galleryCursor', 'stats'])
    const bodies = await expectChanged(before, ADMIN_PATHS)
    expect(bodies.get('second:adminUploads').items[0].id).toBe(pending.id)
    expect(bodies.get('second:adminStats').pending).toBe(1)

    // Approving it shows it on both instances.
    const beforeApprove = await tags()
    expect((await api(second.url, `/api/admin/uploads/${pending.id}/approve`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    const approved = await expectItemsChanged(beforeApprove)
    for (const instance of ['first', 'second']) expect(galleryIds(approved, instance)[0]).toBe(pending.id)
    seeded.push(pending)
    await setModeration(server.url, server.cookie, 'post')
  })

  it('a photo\'s public images becoming ready changes the public answers (any writer: here straight into the file)', async () => {
    const photo = seeded.at(-1)!
    const { rows } = await server.db.execute({ sql: 'select display_key from uploads where id = ?', args: [photo.id] })
    const displayKey = String(rows[0]!.display_key)
    await server.db.execute({ sql: 'update uploads set display_key = null where id = ?', args: [photo.id] })
    const before = await tags()
    expect((await get(server.url, 'gallery')).body.items.map((item: any) => item.id)).not.toContain(photo.id)
    await server.db.execute({ sql: 'update uploads set display_key = ? where id = ?', args: [displayKey, photo.id] })
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) expect(galleryIds(bodies, instance)[0]).toBe(photo.id)
  })

  it('a reject drops the item from the next answer of every page on both instances', async () => {
    // The cursor page's first item: the reject shows on that page too.
    const onCursorPage = (await get(server.url, 'galleryCursor')).body.items[0].id
    const before = await tags()
    expect((await api(server.url, `/api/admin/uploads/${onCursorPage}/reject`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) {
      expect(galleryIds(bodies, instance, 'galleryCursor')).not.toContain(onCursorPage)
      expect(bodies.get(`${instance}:adminUploads`).items.find((item: any) => item.id === onCursorPage).status).toBe('rejected')
    }
  })

  it('an edit changes the gallery\'s answer on both instances', async () => {
    const target = (await get(server.url, 'gallery')).body.items[0].id
    const before = await tags()
    expect((await api(second.url, `/api/admin/uploads/${target}`, { method: 'PATCH', json: { author: 'Editado' }, cookie: server.cookie })).status).toBe(200)
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) expect(bodies.get(`${instance}:gallery`).items[0]).toMatchObject({ id: target, author: 'Editado' })
  })

  it('an admin\'s delete removes the item from the next answer on both instances', async () => {
    const target = (await get(server.url, 'gallery')).body.items[1].id
    const before = await tags()
    expect((await api(server.url, `/api/admin/uploads/${target}`, { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) {
      expect(galleryIds(bodies, instance)).not.toContain(target)
      expect(bodies.get(`${instance}:adminUploads`).items.map((item: any) => item.id)).not.toContain(target)
    }
  })

  it('setting and removing the cover change the event and the admin list, not the gallery', async () => {
    let before = await tags()
    expect((await api(server.url, `/api/admin/uploads/${oldest.id}/cover`, { method: 'POST', cookie: server.cookie })).status).toBe(200)
    await expectUnchanged(before, ['gallery', 'galleryCursor', 'stats', 'adminStats'])
    let bodies = await expectChanged(before, ['event', 'adminUploads'])
    for (const instance of ['first', 'second']) {
      expect(bodies.get(`${instance}:event`).cover.id).toBe(oldest.id)
      expect(bodies.get(`${instance}:adminUploads`).items.find((item: any) => item.id === oldest.id).isCover).toBe(true)
    }

    before = await tags()
    expect((await api(second.url, '/api/admin/event/cover', { method: 'DELETE', cookie: server.cookie })).status).toBe(200)
    bodies = await expectChanged(before, ['event', 'adminUploads'])
    for (const instance of ['first', 'second']) expect(bodies.get(`${instance}:event`).cover).toBeNull()
  })

  it('an event settings PATCH changes the event\'s answer on both instances', async () => {
    const before = await tags()
    expect((await api(second.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bia' }, cookie: server.cookie })).status).toBe(200)
    await expectUnchanged(before, ['gallery', 'galleryCursor', 'stats', 'adminStats'])
    const bodies = await expectChanged(before, ['event'])
    for (const instance of ['first', 'second']) expect(bodies.get(`${instance}:event`).coupleNames).toBe('Ana & Bia')
  })

  it('the sweeper making a forgotten photo\'s images changes the public answers on both instances', async () => {
    // A photo whose derivation was lost (a crash): no images yet. Its confirm is still recent, so
    // the sweeper (every second) leaves it while the answers without it are taken.
    const lost = await seedPhoto(server.url, { author: 'Esquecida' })
    await server.db.execute({ sql: 'update uploads set display_key = null, thumb_key = null, derived_at = null where id = ?', args: [lost.id] })
    const before = await tags()
    expect((await get(server.url, 'gallery')).body.items.map((item: any) => item.id)).not.toContain(lost.id)
    // Confirmed a minute ago: now the sweeper's. That write moves the tags too, so the wait is for
    // an answer that lists the photo, which only its images being made can bring.
    await server.db.execute({ sql: 'update uploads set confirmed_at = confirmed_at - 60000 where id = ?', args: [lost.id] })
    const deadline = Date.now() + 15_000
    for (;;) {
      const answer = await get(server.url, 'gallery', before.get('gallery'))
      if (answer.status === 200 && answer.body.items.some((item: any) => item.id === lost.id)) break
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise(resolve => setTimeout(resolve, 200))
    }
    const bodies = await expectItemsChanged(before)
    for (const instance of ['first', 'second']) expect(galleryIds(bodies, instance)).toContain(lost.id)
  }, 30_000)

  it('compresses JSON answers above 1 KB as the client accepts (br, gzip, q-values) to the same JSON', async () => {
    // Enough items for a page above the threshold.
    for (let i = 0; i < 6; i++) await seedPhoto(server.url, { author: `Convidada com um nome bem comprido ${i}`, message: 'Felicidades aos noivos, que a festa seja linda!' })
    for (const path of ['/api/gallery?limit=100', '/api/admin/uploads?limit=50'] as const) {
      const headers: Record<string, string> = path.startsWith('/api/admin') ? { cookie: server.cookie } : {}
      const plain = await rawGet(`${server.url}${path}`, headers)
      expect(plain.status).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.bytes.length).toBeGreaterThan(1024)
      const expected = JSON.parse(plain.bytes.toString('utf8'))
      const cases: [string, string | undefined, (bytes: Buffer) => Buffer][] = [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['br;q=0.5, gzip;q=0.8', 'gzip', gunzipSync],
        ['br;q=0, gzip;q=0', undefined, bytes => bytes],
        ['*', 'br', brotliDecompressSync],
        ['identity', undefined, bytes => bytes],
      ]
      for (const [accept, encoding, decode] of cases) {
        const response = await rawGet(`${server.url}${path}`, { ...headers, 'accept-encoding': accept })
        expect(response.status).toBe(200)
        expect(response.headers['content-encoding'], `${path} ${accept}`).toBe(encoding)
        expect(response.headers.vary).toContain('accept-encoding')
        expect(response.headers['content-type']).toMatch(/^application\/json/)
        if (encoding) expect(response.bytes.length).toBeLessThan(plain.bytes.length / 2)
        const decoded = JSON.parse(decode(response.bytes).toString('utf8'))
        // The admin list signs the originals' URLs anew on every request.
        if (path.startsWith('/api/admin')) expect(decoded.items.map((item: any) => item.id)).toEqual(expected.items.map((item: any) => item.id))
        else expect(decoded).toEqual(expected)
      }
      // Never a compressed 304.
      const unchanged = await rawGet(`${server.url}${path}`, { ...headers, 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string })
      expect(unchanged.status).toBe(304)
      expect(unchanged.headers['content-encoding']).toBeUndefined()
      expect(unchanged.bytes.length).toBe(0)
    }
    // Small answers are not worth it.
    const small = await rawGet(`${server.url}/api/stats`, { 'accept-encoding': 'br, gzip' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(small.bytes.toString('utf8'))).toEqual((await api(server.url, '/api/stats')).body)
  }, 60_000)
})
