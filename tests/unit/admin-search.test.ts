import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient, type Client, type InStatement } from '@libsql/client'
import { and, eq, isNotNull } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema'
import { findAdminUploads, type AdminUploadsSearch } from '../../server/utils/admin/search'
import type { Db } from '../../server/utils/db'
import { cutPage, cursorFromQuery } from '../../server/utils/paging/keyset'
import { containsPattern, foldForSearch, LIKE_ESCAPE, searchTextOf, trigramPhrase } from '../../shared/search'
import { ROOT } from '../support/server'

// The admin's text search through the trigram index compared with a plain scan, today's LIKE
// over every row, on a seeded SQLite database: same items, same order, same pages, same total.

const MIGRATIONS = join(ROOT, 'db/migrations')
const FTS_MIGRATION = '0006_fts_search.sql'
/** Small limits, so that both sides of each (counting stops, short-query window) are reached. */
const TOTAL_LIMIT = 12
const SHORT_WINDOW = 60

async function migrate(client: Client, which: (file: string) => boolean) {
  for (const file of readdirSync(MIGRATIONS).filter(name => name.endsWith('.sql') && which(name)).sort()) {
    for (const statement of readFileSync(join(MIGRATIONS, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await client.execute(statement)
    }
  }
}

interface Seed { id: string, author: string, message: string, status?: 'pending' | 'approved' | 'rejected', kind?: 'photo' | 'video', confirmed?: boolean, at: number }

function insert(seed: Seed, searchText = searchTextOf(seed.author, seed.message)): InStatement {
  return {
    sql: `insert into uploads (id, status, kind, author, message, search_text, file_name, content_type, size, storage_key, created_at, confirmed_at, updated_at)
          values (?, ?, ?, ?, ?, ?, 'f.jpg', 'image/jpeg', 1, ?, ?, ?, ?)`,
    args: [seed.id, seed.status ?? 'approved', seed.kind ?? 'photo', seed.author, seed.message, searchText,
      `orig/${seed.id}`, seed.at, seed.confirmed === false ? null : seed.at + 1, seed.at],
  }
}

const T0 = 1_800_000_000_000
/** The texts the cases below look for; `at` ties (same millisecond) on purpose, ordered by id then. */
const TRICKY: Seed[] = [
  { id: 'sao', author: 'São João', message: 'FELICIDADES aos noivos', at: T0 + 1 },
  { id: 'coracao', author: 'Maria', message: 'Do fundo do coração ❤️', at: T0 + 2, status: 'pending' },
  { id: 'joao-msg', author: 'Pedro', message: 'o joão dançou', at: T0 + 2, kind: 'video' },
  { id: 'percent', author: 'Bia', message: '100% amor', at: T0 + 3 },
  { id: 'percent-near', author: 'Bia', message: '1000 amor', at: T0 + 3, status: 'rejected' },
  { id: 'underscore', author: 'Ana_Bia', message: 'Felicidades', at: T0 + 4 },
  { id: 'no-underscore', author: 'AnaXBia', message: 'a%b', at: T0 + 5 },
  { id: 'greek', author: 'ΟΔΟΣ', message: 'οδοσ καλη', at: T0 + 6 },
  { id: 'ligature', author: 'ﬀ', message: 'Łukasz e Müller, Zoë', at: T0 + 7 },
  { id: 'quotes', author: '"Tia" Conceição', message: 'disse "oi"', at: T0 + 8, status: 'pending', kind: 'video' },
  { id: 'newline', author: 'Ana', message: 'Bia\nfelicidades', at: T0 + 9 },
  { id: 'unconfirmed', author: 'São João', message: 'felicidades', at: T0 + 10, confirmed: false },
  { id: 'istanbul', author: 'İSTANBUL', message: 'ＦＵＬＬ width', at: T0 + 11 },
  // Forty uploads in one millisecond, inserted out of id order: more than a page reads at first.
  ...Array.from({ length: 40 }, (_, i) => ({
    id: `tie-${String((i * 17) % 40).padStart(2, '0')}`, author: 'Empate', message: i % 2 ? 'felicidades' : '', at: T0 + 30,
    status: i % 3 ? 'approved' as const : 'pending' as const,
  })),
]

/** Many rows that share words, so that counting stops and the short window ends. */
function filler(count: number): Seed[] {
  const words = ['felicidades', 'parabéns', 'Saúde', 'amor', 'festa linda', 'obrigado']
  return Array.from({ length: count }, (_, i) => ({
    id: `f${String(i).padStart(4, '0')}`,
    author: i % 7 === 0 ? 'João' : `Convidado ${i % 13}`,
    message: `${words[i % words.length]} ${i % 5 === 0 ? 'coração' : ''}`,
    status: (['approved', 'pending', 'approved', 'rejected'] as const)[i % 4],
    kind: i % 9 === 0 ? 'video' : 'photo',
    at: T0 - 1000 * (i + 1) - (i % 3 === 0 ? 0 : 1),
  }))
}

const QUERIES = [
  // uploads made in the same millisecond
  'empate', 'empate felicidades',
  // accents and case, on both sides
  'São João', 'sao joao', 'SAO', 'joão', 'FELICIDADES', 'felicidades', 'Felicidades aos', 'coração', 'coracao', 'CORAÇÃO',
  // % and _ are literal
  '100%', '0%', '%', '%%', 'a%b', '_', 'ana_bia', 'a_b', '\\',
  // 1 and 2 characters: the fallback
  'a', 'jo', 'ç', 'zq', '❤️',
  // author only, message only, and a query that would cross both (never matches)
  'tia conceicao', 'dançou', 'joaofelicidades', 'joao felicidades', 'bia felicidades', 'biafelicidades', 'ana\u001Fbia',
  // Greek final sigma, ligatures, full width, dotted İ, quotes (FTS5 syntax characters), newline
  'οδος', 'ΟΔΟΣ', 'οδοσ', 'ff', 'lukasz', 'łukasz', 'muller', 'full', 'istanbul', '"tia"', '"', 'disse "oi', 'bia\nfel',
  // not found
  'ninguém', 'xyz',
]

const FILTERS: Pick<Query, 'status' | 'kind'>[] = [
  { status: 'all' }, { status: 'pending' }, { status: 'approved', kind: 'photo' }, { status: 'all', kind: 'video' }, { status: 'rejected' },
]

interface Query { status: 'all' | 'pending' | 'approved' | 'rejected', kind?: 'photo' | 'video', q: string }

function filterOf(query: Query) {
  return and(
    isNotNull(schema.uploads.confirmedAt),
    query.status === 'all' ? undefined : eq(schema.uploads.status, query.status),
    query.kind ? eq(schema.uploads.kind, query.kind) : undefined,
  )
}

/** Today's search: a LIKE on every row, newest first; a short query looks at the window only. */
async function plainScan(client: Client, query: Query): Promise<{ ids: string[], total: number, totalIsLowerBound: boolean }> {
  const where = ['confirmed_at IS NOT NULL']
  const args: string[] = []
  if (query.status !== 'all') {
    where.push('status = ?')
    args.push(query.status)
  }
  if (query.kind) {
    where.push('kind = ?')
    args.push(query.kind)
  }
  const { rows } = await client.execute({
    sql: `SELECT id, search_text LIKE ? ESCAPE ? AS hit FROM uploads WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC`,
    args: [containsPattern(query.q), LIKE_ESCAPE, ...args],
  })
  const short = trigramPhrase(query.q) === null
  const searched = short ? rows.slice(0, SHORT_WINDOW) : rows
  const ids = searched.filter(row => row.hit === 1).map(row => String(row.id))
  return { ids, total: Math.min(ids.length, TOTAL_LIMIT), totalIsLowerBound: ids.length > TOTAL_LIMIT || searched.length < rows.length }
}

/** Every page of the service's answer, followed by its cursor, as the dashboard reads them. */
async function searchAll(db: Db, query: Query, pageSize: number) {
  const ids: string[] = []
  const totals = new Set<string>()
  let cursor: string | null = null
  do {
    const search: AdminUploadsSearch = {
      filter: filterOf(query), narrowed: query.status !== 'all' || query.kind !== undefined, q: query.q,
      cursor: cursorFromQuery(cursor ?? undefined), fetch: pageSize + 1, totalLimit: TOTAL_LIMIT, shortWindow: SHORT_WINDOW,
    }
    const found = await findAdminUploads(db, search)
    const page = cutPage(found.rows, pageSize)
    ids.push(...page.rows.map(row => row.id))
    totals.add(JSON.stringify({ total: found.total, totalIsLowerBound: found.totalIsLowerBound }))
    cursor = page.nextCursor
  } while (cursor)
  expect(totals.size, 'every page answers the same total').toBe(1)
  return { ids, ...JSON.parse([...totals][0]!) as { total: number, totalIsLowerBound: boolean } }
}

async function expectSameAsPlainScan(client: Client, db: Db, queries = QUERIES, pageSize = 25) {
  for (const filters of FILTERS) {
    for (const q of queries) {
      const query = { ...filters, q }
      const label = JSON.stringify(query)
      expect(await searchAll(db, query, pageSize), label).toEqual(await plainScan(client, query))
    }
  }
}

/** A comparison reads every page of 235 lists, the tokenizer check 65,000 rows: seconds on a loaded two-core machine. */
const SLOW_TEST_TIMEOUT = 60_000

describe('admin search: the index answers as a plain scan does', () => {
  const client = createClient({ url: ':memory:' })
  const db = drizzle(client, { schema })

  beforeAll(async () => {
    await migrate(client, () => true)
    await client.batch([...TRICKY, ...filler(240)].map(seed => insert(seed)), 'write')
  })
  afterAll(() => client.close())

  it('finds the same uploads, in the same order and pages, with the same total, for every query and filter', async () => {
    await expectSameAsPlainScan(client, db)
    // Small pages: cursors inside groups of uploads made in the same millisecond.
    await expectSameAsPlainScan(client, db, ['joão', 'felicidades', 'coracao', 'a', 'bia', 'empate'], 2)
  }, SLOW_TEST_TIMEOUT)

  it('reaches every path: few matches, many matches, counting stopped, one millisecond, the short window', async () => {
    const all = (q: string) => searchAll(db, { status: 'all', q }, 7)
    expect(await all('conceição')).toMatchObject({ ids: ['quotes'], total: 1, totalIsLowerBound: false })
    expect(await all('felicidades')).toMatchObject({ total: TOTAL_LIMIT, totalIsLowerBound: true })
    expect((await all('felicidades')).ids.length).toBeGreaterThan(TOTAL_LIMIT)
    // The forty of one millisecond, in id order, across pages.
    const tie = await searchAll(db, { status: 'all', q: 'empate' }, 3)
    expect(tie.ids).toEqual(Array.from({ length: 40 }, (_, i) => `tie-${String(39 - i).padStart(2, '0')}`))
    expect(tie).toMatchObject({ total: TOTAL_LIMIT, totalIsLowerBound: true })
    expect(await all('sao joao')).toMatchObject({ ids: ['sao'], total: 1, totalIsLowerBound: false })
    // A short query looks at the newest SHORT_WINDOW uploads only, and says so.
    expect(await all('a')).toMatchObject({ total: TOTAL_LIMIT, totalIsLowerBound: true })
    const short = await all('ç')
    expect(short.ids).toContain('coracao')
    expect(short.totalIsLowerBound).toBe(true)
  })

  it('follows inserts, confirmations, edits and deletions (the triggers)', async () => {
    await client.batch([
      insert({ id: 'late', author: 'Zuleica', message: 'cheguei tarde', at: T0 + 20, confirmed: false }),
      insert({ id: 'restored', author: 'Zuleica', message: 'já confirmada', at: T0 + 21 }),
    ], 'write')
    const zuleica = () => searchAll(db, { status: 'all', q: 'zuleica' }, 7)
    expect((await zuleica()).ids).toEqual(['restored'])

    await db.update(schema.uploads).set({ confirmedAt: new Date(T0 + 22) }).where(eq(schema.uploads.id, 'late'))
    expect((await zuleica()).ids).toEqual(['restored', 'late'])

    // An edit, as patchUpload writes it: the old text is gone from the index, the new one is in.
    await db.update(schema.uploads).set({ author: 'Joaquina', searchText: searchTextOf('Joaquina', 'cheguei tarde') }).where(eq(schema.uploads.id, 'late'))
    expect((await zuleica()).ids).toEqual(['restored'])
    expect((await searchAll(db, { status: 'all', q: 'JOAQUINA' }, 7)).ids).toEqual(['late'])
    // Status changes do not touch the index, and the filters still apply.
    await db.update(schema.uploads).set({ status: 'rejected' }).where(eq(schema.uploads.id, 'late'))
    expect((await searchAll(db, { status: 'rejected', q: 'joaquina' }, 7)).ids).toEqual(['late'])
    expect((await searchAll(db, { status: 'approved', q: 'joaquina' }, 7)).ids).toEqual([])

    await db.delete(schema.uploads).where(eq(schema.uploads.id, 'late'))
    await db.delete(schema.uploads).where(eq(schema.uploads.id, 'f0003'))
    // A key freed by a deletion is given again to the next upload of that millisecond.
    const keyOf = async (id: string) => (await db.select({ key: schema.uploadSearchKeys.key }).from(schema.uploadSearchKeys).where(eq(schema.uploadSearchKeys.uploadId, id)))[0]?.key
    const freed = await keyOf('restored')
    await db.delete(schema.uploads).where(eq(schema.uploads.id, 'restored'))
    await client.execute(insert({ id: 'reused', author: 'Zuleica', message: 'de volta', at: T0 + 21 }))
    expect(await keyOf('reused')).toBe(freed)
    expect((await zuleica()).ids).toEqual(['reused'])
    expect((await searchAll(db, { status: 'all', q: 'joaquina' }, 7)).ids).toEqual([])
    const keys = await client.execute(`SELECT count(*) AS n FROM upload_search_keys WHERE upload_id IN ('late', 'f0003')`)
    expect(keys.rows[0]!.n).toBe(0)
    // Deleting an unconfirmed upload (the sweeper) leaves the index alone.
    await db.delete(schema.uploads).where(eq(schema.uploads.id, 'unconfirmed'))
    await client.execute(`INSERT INTO uploads_fts (uploads_fts, rank) VALUES ('integrity-check', 0)`)
    await expectSameAsPlainScan(client, db)
    const counts = await client.execute(`SELECT (SELECT count(*) FROM upload_search_keys) AS keys, (SELECT count(*) FROM uploads WHERE confirmed_at IS NOT NULL) AS confirmed`)
    expect(counts.rows[0]!.keys).toBe(counts.rows[0]!.confirmed)
  }, SLOW_TEST_TIMEOUT)

  it('answers from the indexes: no step reads the whole table', { timeout: SLOW_TEST_TIMEOUT }, async () => {
    const statements: InStatement[] = []
    const spy = new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'execute') {
          return (statement: InStatement) => {
            statements.push(statement)
            return target.execute(statement)
          }
        }
        if (property === 'batch') {
          return (batch: InStatement[], mode?: 'read') => {
            statements.push(...batch)
            return target.batch(batch, mode)
          }
        }
        const value = Reflect.get(target, property, receiver)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const spied = drizzle(spy, { schema })
    const plans = async (query: Query) => {
      statements.length = 0
      await searchAll(spied, query, 7)
      const out: string[] = []
      for (const statement of statements) {
        const { sql, args } = typeof statement === 'string' ? { sql: statement, args: [] } : statement
        const { rows } = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args })
        out.push(rows.map(row => String(row.detail)).join('; '))
      }
      return out
    }
    // The index in key order (no sort), then each match's key and row by their primary keys.
    const inIndex = /SCAN uploads_fts VIRTUAL TABLE INDEX \d+:M1[^;]*; SEARCH upload_search_keys USING INTEGER PRIMARY KEY \(rowid=\?\); SEARCH uploads USING INDEX sqlite_autoindex_uploads_1 \(id=\?\)$/m
    const few = await plans({ status: 'all', q: 'conceição' })
    expect(few.join('\n')).toMatch(inIndex)
    const many = await plans({ status: 'all', q: 'felicidades' })
    expect(many.join('\n')).toMatch(inIndex)
    const fewFiltered = await plans({ status: 'pending', q: 'conceição' })
    expect(fewFiltered.join('\n')).toMatch(inIndex)
    const manyFiltered = await plans({ status: 'pending', q: 'felicidades' })
    expect(manyFiltered.join('\n')).toMatch(/SEARCH uploads USING INDEX uploads_status_created_idx \(status=\?/)
    const short = await plans({ status: 'all', q: 'jo' })
    expect(short.join('\n')).toMatch(/SCAN uploads USING (COVERING )?INDEX uploads_admin_newest_idx/)
    for (const plan of [...few, ...many, ...fewFiltered, ...manyFiltered, ...short]) {
      // A table scan is "SCAN uploads" with no index after it; no step sorts what it read.
      expect(plan).not.toMatch(/SCAN uploads(?! USING)(;|$)/)
      expect(plan).not.toMatch(/TEMP B-TREE/)
    }
  })
})

describe('admin search: the migration indexes the uploads already there', () => {
  const client = createClient({ url: ':memory:' })
  const db = drizzle(client, { schema })
  afterAll(() => client.close())

  it('fills the index with every confirmed upload and folds final sigma as the index does', async () => {
    await migrate(client, file => file < FTS_MIGRATION)
    // Rows written before the migration, with the fold of the time (final sigma kept as ς).
    const old = insert({ id: 'old-greek', author: 'ΟΔΟΣ', message: '', at: T0 - 5 }, 'οδος\u001F')
    await client.batch([...TRICKY.map(seed => insert(seed)), ...filler(100).map(seed => insert(seed)), old], 'write')
    // The text index's migration, and those after it that the schema (and so the search) reads.
    await migrate(client, file => file >= FTS_MIGRATION)

    const folded = await client.execute(`SELECT search_text FROM uploads WHERE id = 'old-greek'`)
    expect(folded.rows[0]!.search_text).toBe(`${foldForSearch('ΟΔΟΣ')}\u001F`)
    const indexed = await client.execute(`SELECT (SELECT count(*) FROM upload_search_keys) AS keys, (SELECT count(*) FROM uploads WHERE confirmed_at IS NOT NULL) AS confirmed`)
    expect(indexed.rows[0]!.keys).toBe(indexed.rows[0]!.confirmed)
    expect((await searchAll(db, { status: 'all', q: 'οδος' }, 7)).ids).toEqual(['greek', 'old-greek'])
    await expectSameAsPlainScan(client, db)
  }, SLOW_TEST_TIMEOUT)
})

describe('admin search: the tokenizer folds nothing that shared/search.ts leaves', () => {
  it('reads every folded character as itself (the BMP, and Deseret, the one script it folds above it)', async () => {
    const client = createClient({ url: ':memory:' })
    try {
      await client.execute(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram remove_diacritics 1')`)
      await client.execute(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`)
      const folded = new Set<string>()
      const codePoints = [...Array.from({ length: 0x10000 }, (_, i) => i), ...Array.from({ length: 0x50 }, (_, i) => 0x10400 + i)]
      for (const cp of codePoints) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue
        // eslint-disable-next-line no-control-regex -- control characters never reach the index from a query
        for (const ch of foldForSearch(String.fromCodePoint(cp)).replace(/[\u0000-\u001F\u007F]/g, '')) folded.add(ch)
      }
      const chars = [...folded]
      await client.batch(chars.map((ch, i) => ({ sql: 'INSERT INTO t (rowid, x) VALUES (?, ?)', args: [i + 1, `q${ch}q`] })), 'write')
      const { rows } = await client.execute('SELECT doc, term FROM v')
      const differing = rows.filter(row => row.term !== `q${chars[Number(row.doc) - 1]}q`)
        .map(row => `U+${chars[Number(row.doc) - 1]!.codePointAt(0)!.toString(16)} → ${String(row.term)}`)
      expect(differing).toEqual([])
      expect(rows.length).toBe(chars.length)
    }
    finally {
      client.close()
    }
  }, SLOW_TEST_TIMEOUT)
})
