import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { afterEach, describe, expect, it } from 'vitest'
import { isReadOnlySql, withWriteTurns } from '../../server/utils/db-write-turns'

// Writers of one process on a real libSQL file (WAL, a pool of connections, as the server opens
// it). Without the turns, four transactions started in one tick make the second BEGIN wait in
// SQLite's busy handler with the event loop blocked, fail SQLITE_BUSY, and poison its pooled
// connection ("cannot commit transaction - SQL statements in progress" on its next transaction).

const opened: { client: Client, dir: string }[] = []

async function database(timeoutMs: number): Promise<Client> {
  const dir = mkdtempSync(join(tmpdir(), 'write-turns-'))
  const raw = createClient({ url: `file:${join(dir, 'db.sqlite')}`, timeout: timeoutMs })
  opened.push({ client: raw, dir })
  await raw.execute('PRAGMA journal_mode = WAL')
  await raw.execute('CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)')
  await raw.batch(Array.from({ length: 8 }, (_, i) => ({ sql: 'INSERT INTO counters (id, n) VALUES (?, 0)', args: [i + 1] })), 'write')
  return withWriteTurns(raw, timeoutMs)
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

  it('tells reads from writes by the statement text', () => {
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
