import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type Client, type InStatement } from '@libsql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEARCH_TOTAL_LIMIT, searchTextOf } from '../../shared/search'
import { api, login } from '../support/http'
import { seedPhoto } from '../support/seed'
import { ROOT, startServer, type TestServer } from '../support/server'

// The text index through the real server: started on a database made before the index existed
// (the migration at start fills it), then written to by the service's own routes and behind its
// back, as the benchmark seeds; answers carry the capped total and its flag.

const MIGRATIONS = join(ROOT, 'db/migrations')
const FTS_TAG = '0006_fts_search'
const T0 = Date.parse('2026-12-12T18:00:00.000Z')

interface Journal { entries: { when: number, tag: string }[] }

/** A database as the service left it before the index: migrations up to 0003, bookkept as the start-up runner does. */
async function databaseBeforeIndex(path: string): Promise<Client> {
  const client = createClient({ url: `file:${path}` })
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as Journal
  await client.execute(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`)
  for (const entry of journal.entries.filter(entry => entry.tag < FTS_TAG)) {
    const text = readFileSync(join(MIGRATIONS, `${entry.tag}.sql`), 'utf8')
    for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await client.execute(statement)
    await client.execute({ sql: `INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)`, args: [createHash('sha256').update(text).digest('hex'), entry.when] })
  }
  return client
}

function row(id: string, author: string, message: string, at: number, fields: { status?: string, confirmed?: boolean } = {}): InStatement {
  return {
    sql: `INSERT INTO uploads (id, status, kind, author, message, search_text, file_name, content_type, size, storage_key, thumb_key, display_key, derived_at, created_at, confirmed_at, updated_at)
          VALUES (?, ?, 'photo', ?, ?, ?, 'IMG.JPG', 'image/jpeg', 1000, ?, ?, ?, ?, ?, ?, ?)`,
    args: [id, fields.status ?? 'approved', author, message, searchTextOf(author, message), `orig/${id}.jpg`, `media/${id}-thumb.webp`,
      `media/${id}-display.jpg`, at + 2, at, fields.confirmed === false ? null : at + 1, at + 1],
  }
}

describe('admin search through the index', () => {
  let dir: string
  let server: TestServer
  let cookie: string
  let db: Client
  const list = (query: string) => api(server.url, `/api/admin/uploads${query}`, { cookie })
  const ids = (response: { body: any }) => response.body.items.map((item: any) => item.id)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-media-search-'))
    const before = await databaseBeforeIndex(join(dir, 'event.db'))
    await before.batch([
      row('old-sao', 'São João', 'FELICIDADES aos noivos', T0),
      row('old-coracao', 'Tia Conceição', 'de todo o coração', T0 + 1000, { status: 'pending' }),
      row('old-percent', 'Bia', '100% amor', T0 + 2000),
      row('old-unconfirmed', 'São João', 'nunca confirmado', T0 + 3000, { confirmed: false }),
    ], 'write')
    before.close()
    server = await startServer({}, dir)
    cookie = await login(server.url)
    db = createClient({ url: `file:${server.dbPath}`, timeout: 10_000 })
  }, 60_000)
  afterAll(async () => {
    db?.close()
    await server?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('finds the uploads that were there before the index, once the server has migrated at start', async () => {
    const applied = await db.execute(`SELECT count(*) AS n FROM "__drizzle_migrations"`)
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as Journal
    expect(applied.rows[0]!.n).toBe(journal.entries.length)

    const sao = await list('?q=sao%20joao')
    expect(sao.status).toBe(200)
    expect(ids(sao)).toEqual(['old-sao'])
    expect(sao.body).toMatchObject({ total: 1, totalIsLowerBound: false, nextCursor: null })
    expect(ids(await list('?q=CORA%C3%87%C3%83O'))).toEqual(['old-coracao'])
    expect(ids(await list('?q=100%25'))).toEqual(['old-percent'])
    expect(ids(await list('?q=felicidades&status=pending'))).toEqual([])
    expect(ids(await list('?q=conceicao&status=pending'))).toEqual(['old-coracao'])
    // Two characters: the LIKE fallback, same answer.
    expect(ids(await list('?q=%C3%A3o'))).toEqual(['old-coracao', 'old-sao'])
  })

  it('follows uploads confirmed, edited and deleted through the routes', async () => {
    const photo = await seedPhoto(server.url, { author: 'Zuleica', message: 'Felicidades!' })
    expect(ids(await list('?q=zuleica'))).toEqual([photo.id])

    const edited = await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'PATCH', json: { author: 'Joaquina' }, cookie })
    expect(edited.status).toBe(200)
    expect(ids(await list('?q=zuleica'))).toEqual([])
    expect(ids(await list('?q=JOAQUINA'))).toEqual([photo.id])

    const other = await seedPhoto(server.url, { author: 'Joaquina', message: 'de novo' })
    expect(ids(await list('?q=joaquina'))).toEqual([other.id, photo.id])
    const deleted = await api(server.url, `/api/admin/uploads/${photo.id}`, { method: 'DELETE', cookie })
    expect(deleted.status).toBe(200)
    expect(ids(await list('?q=joaquina'))).toEqual([other.id])
    const bulk = await api(server.url, '/api/admin/uploads/bulk', { method: 'POST', json: { ids: [other.id], action: 'delete' }, cookie })
    expect(bulk.status).toBe(200)
    expect(await list('?q=joaquina')).toMatchObject({ status: 200, body: { items: [], total: 0, totalIsLowerBound: false } })
  })

  it(`counts up to ${SEARCH_TOTAL_LIMIT} matches, then answers that many with totalIsLowerBound`, async () => {
    const rows: InStatement[] = []
    for (let i = 0; i < SEARCH_TOTAL_LIMIT + 60; i++) {
      rows.push(row(`bulk-${String(i).padStart(5, '0')}`, `Convidado ${i}`, i % 2 ? 'Muchas felicidades' : 'parabéns', T0 + 10_000 + i * 1000, { status: i % 10 ? 'approved' : 'pending' }))
    }
    await db.batch(rows, 'write')
    const matching = SEARCH_TOTAL_LIMIT / 2 + 30 + 1 // the bulk rows with "felicidades", plus old-sao

    const many = await list('?q=felicidades&limit=3')
    expect(many.status).toBe(200)
    expect(ids(many)).toEqual(['bulk-01059', 'bulk-01057', 'bulk-01055'])
    expect(many.body).toMatchObject({ total: matching, totalIsLowerBound: false })

    const everyone = await list('?q=convidado&limit=2')
    expect(ids(everyone)).toEqual(['bulk-01059', 'bulk-01058'])
    expect(everyone.body).toMatchObject({ total: SEARCH_TOTAL_LIMIT, totalIsLowerBound: true })
    // Every page says the same.
    const next = await list(`?q=convidado&limit=2&cursor=${everyone.body.nextCursor}`)
    expect(ids(next)).toEqual(['bulk-01057', 'bulk-01056'])
    expect(next.body).toMatchObject({ total: SEARCH_TOTAL_LIMIT, totalIsLowerBound: true })
    // A filter under the cap counts exactly (every tenth bulk row is pending).
    expect((await list('?q=convidado&status=pending')).body).toMatchObject({ total: 106, totalIsLowerBound: false })
    // A short query: a LIKE over the newest uploads (all of them here), counted up to the cap;
    // "do" is in every "convidado" and in old-coracao's "todo".
    expect((await list('?q=do&limit=1')).body).toMatchObject({ total: SEARCH_TOTAL_LIMIT, totalIsLowerBound: true })
    expect((await list('?q=do&status=pending&limit=1')).body).toMatchObject({ total: 106 + 1, totalIsLowerBound: false })
    // Without q the total stays exact, whatever its size.
    expect((await list('?limit=1')).body).toMatchObject({ total: SEARCH_TOTAL_LIMIT + 60 + 3, totalIsLowerBound: false })
  })
})
