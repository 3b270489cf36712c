import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { afterEach, describe, expect, it } from 'vitest'
import { isReadOnlySql, isRowWriteSql, withWriteTurns } from '../../server/utils/db-write-turns'

// Writers of one process on a real libSQL file (WAL, a pool of connections, as the server opens
// it). Without the turns, four transactions started in one tick make the second BEGIN wait in
// SQLite's busy handler with the event loop blocked, fail SQLITE_BUSY, and poison its pooled
// connection ("cannot commit transaction - SQL statements in progress" on its next transaction).

const opened: { client: Client, dir: string }[] = []

async function database(timeoutMs: number, commits?: { count: number }): Promise<Client> {
  const dir = mkdtempSync(join(tmpdir(), 'write-turns-'))
  const raw = createClient({ url: `file:${join(dir, 'db.sqlite')}`, timeout: timeoutMs })
  opened.push({ client: raw, dir })
  await raw.execute('PRAGMA journal_mode = WAL')
  await raw.execute('CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)')
  await raw.batch(Array.from({ length: 8 }, (_, i) => ({ sql: 'INSERT INTO counters (id, n) VALUES (?, 0)', args: [i + 1] })), 'write')
  if (!commits) return withWriteTurns(raw, timeoutMs)
  // Counts what reaches the file as a commit of its own: one statement alone, or one batch.
  const counted = new Proxy(raw, {
    get(target, property, receiver) {
      if (property === 'execute' || property === 'batch') {
        return (...args: unknown[]) => {
          commits.count++
          return (target[property] as (...a: unknown[]) => unknown)(...args)
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return withWriteTurns(counted, timeoutMs)
}

afterEach(() => {
  for (const { client, dir } of opened.splice(0)) {
    client.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('write turns on a local libSQL file', () => {
  it('transactions, write statements and read batches started in the same tick all succeed, none lost', async () => {
    // A short busy timeout: without the turns, each collision fails fast instead of freezing the test.
    const client = await database(100)
    const rounds = 40
    const failures: string[] = []
    for (let round = 0; round < rounds; round++) {
      const work: Promise<unknown>[] = []
      for (let id = 1; id <= 4; id++) {
        work.push((async () => {
          const tx = await client.transaction('write')
          try {
            const before = await tx.execute({ sql: 'SELECT n FROM counters WHERE id = ?', args: [id] })
            await tx.execute({ sql: 'UPDATE counters SET n = ? WHERE id = ? RETURNING n', args: [Number(before.rows[0]!.n) + 1, id] })
            await tx.commit()
          }
          catch (error) {
            tx.close()
            throw error
          }
        })())
        work.push(client.execute({ sql: 'UPDATE counters SET n = n + 1 WHERE id = ?', args: [id + 4] }))
        work.push(client.batch([{ sql: 'SELECT n FROM counters', args: [] }, { sql: 'SELECT count(*) FROM counters', args: [] }], 'deferred'))
      }
      for (const result of await Promise.allSettled(work)) {
        if (result.status === 'rejected') failures.push(String(result.reason))
      }
    }
    expect(failures).toEqual([])
    const counts = await client.execute('SELECT id, n FROM counters ORDER BY id')
    expect(counts.rows.map(row => Number(row.n))).toEqual(Array.from({ length: 8 }, () => rounds))
  })

  it('a rolled-back or closed transaction gives its turn back', async () => {
    const client = await database(500)
    const first = await client.transaction('write')
    await first.execute('UPDATE counters SET n = 5 WHERE id = 1')
    await first.rollback()
    const second = await client.transaction('write')
    await second.execute('UPDATE counters SET n = 7 WHERE id = 1')
    second.close()
    await client.execute('UPDATE counters SET n = n + 1 WHERE id = 1')
    expect(Number((await client.execute('SELECT n FROM counters WHERE id = 1')).rows[0]!.n)).toBe(1)
  })

  it('a writer that gets no turn within the timeout fails SQLITE_BUSY; readers never wait', async () => {
    const client = await database(300)
    const holder = await client.transaction('write')
    await holder.execute('UPDATE counters SET n = 9 WHERE id = 2')
    const started = Date.now()
    await expect(client.execute('UPDATE counters SET n = 1 WHERE id = 3')).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    // A read goes past the open transaction (WAL): the committed value, not the pending one.
    expect(Number((await client.execute('SELECT n FROM counters WHERE id = 2')).rows[0]!.n)).toBe(0)
    await holder.commit()
    await client.execute('UPDATE counters SET n = 1 WHERE id = 3')
    expect((await client.execute('SELECT n FROM counters WHERE id IN (2, 3) ORDER BY id')).rows.map(row => Number(row.n))).toEqual([9, 1])
  })

  it('write statements asked for together share commits, each caller getting its own result', async () => {
    const commits = { count: 0 }
    const client = await database(2000, commits)
    await client.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)')
    commits.count = 0
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) =>
      client.execute({ sql: 'INSERT INTO notes (text) VALUES (?) RETURNING id, text', args: [`note ${i}`] })))
    expect(results.map(result => result.rows[0]!.text)).toEqual(Array.from({ length: 150 }, (_, i) => `note ${i}`))
    expect(new Set(results.map(result => Number(result.rows[0]!.id))).size).toBe(150)
    // The first alone (nothing waited with it), the rest in groups of at most 100.
    expect(commits.count).toBeLessThanOrEqual(3)
    expect(Number((await client.execute('SELECT count(*) AS n FROM notes')).rows[0]!.n)).toBe(150)
  })

  it('a statement that fails in a group fails alone: the others are committed and answered', async () => {
    const client = await database(2000)
    await client.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)')
    await client.execute({ sql: 'INSERT INTO notes (text) VALUES (?)', args: ['taken'] })
    const settled = await Promise.allSettled([
      client.execute({ sql: 'INSERT INTO notes (text) VALUES (?)', args: ['first'] }),
      client.execute({ sql: 'INSERT INTO notes (text) VALUES (?)', args: ['second'] }),
      client.execute({ sql: 'INSERT INTO notes (text) VALUES (?)', args: ['taken'] }),
      client.execute({ sql: 'UPDATE counters SET n = n + 1 WHERE id = 1', args: [] }),
      client.execute({ sql: 'INSERT INTO notes (text) VALUES (?)', args: ['third'] }),
    ])
    expect(settled.map(result => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
    expect((settled[3] as PromiseFulfilledResult<{ rowsAffected: number }>).value.rowsAffected).toBe(1)
    const texts = (await client.execute('SELECT text FROM notes ORDER BY id')).rows.map(row => row.text)
    expect(texts).toEqual(['taken', 'first', 'second', 'third'])
    expect(Number((await client.execute('SELECT n FROM counters WHERE id = 1')).rows[0]!.n)).toBe(1)
    // And the connection is fit for the next group.
    await Promise.all([1, 2].map(id => client.execute({ sql: 'UPDATE counters SET n = n + 1 WHERE id = ?', args: [id] })))
    expect((await client.execute('SELECT n FROM counters WHERE id IN (1, 2) ORDER BY id')).rows.map(row => Number(row.n))).toEqual([2, 1])
  })

  it('grouped writers that get no turn within the timeout all fail SQLITE_BUSY', async () => {
    const client = await database(300)
    const holder = await client.transaction('write')
    const waiting = Promise.allSettled([1, 2, 3].map(id => client.execute({ sql: 'UPDATE counters SET n = 5 WHERE id = ?', args: [id] })))
    const settled = await waiting
    expect(settled.map(result => result.status === 'rejected' && (result.reason as { code?: string }).code)).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_BUSY'])
    await holder.rollback()
    await client.execute({ sql: 'UPDATE counters SET n = 6 WHERE id = 1', args: [] })
    expect((await client.execute('SELECT n FROM counters WHERE id IN (1, 2) ORDER BY id')).rows.map(row => Number(row.n))).toEqual([6, 0])
  })

  it('tells reads from writes by the statement text', () => {
    expect(isRowWriteSql('insert into "uploads" ("id") values (?)')).toBe(true)
    expect(isRowWriteSql('  UPDATE "uploads" set "status" = ?')).toBe(true)
    expect(isRowWriteSql('with gone as (select id from uploads) delete from uploads where id in gone')).toBe(true)
    expect(isRowWriteSql('PRAGMA journal_mode = WAL')).toBe(false)
    expect(isRowWriteSql('BEGIN IMMEDIATE')).toBe(false)
    expect(isRowWriteSql('select 1')).toBe(false)
    expect(isReadOnlySql('select "id" from "uploads" where "id" = ?')).toBe(true)
    expect(isReadOnlySql('  SELECT count(*) FROM (SELECT 1 FROM uploads_fts WHERE uploads_fts MATCH ? LIMIT 1001)')).toBe(true)
    expect(isReadOnlySql('with matched as (select 1) select count(*) from matched')).toBe(true)
    expect(isReadOnlySql('with gone as (select id from uploads) delete from uploads where id in gone')).toBe(false)
    expect(isReadOnlySql('insert into "uploads" ("id") values (?)')).toBe(false)
    expect(isReadOnlySql('update "uploads" set "status" = ? returning *')).toBe(false)
    expect(isReadOnlySql('PRAGMA journal_mode = WAL')).toBe(false)
    expect(isReadOnlySql('BEGIN IMMEDIATE')).toBe(false)
  })
})
