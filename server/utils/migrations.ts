import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { LibSQLDatabase } from 'drizzle-orm/libsql'

interface Journal { entries: { idx: number, when: number, tag: string, breakpoints: boolean }[] }

/**
 * The same algorithm and bookkeeping table as drizzle-orm's libsql migrator, reading the SQL from
 * Nitro's bundled server assets instead of a folder on disk (serverless presets have none), so
 * `drizzle-kit migrate` and this start-up step agree on what has been applied.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function applyMigrations(db: LibSQLDatabase<any>): Promise<void> {
  const assets = useStorage('assets:migrations')
  const journal = await assets.getItem<Journal>('meta/_journal.json')
  if (!journal) throw new Error('migrations are missing from the server bundle')

  await db.run(sql`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`)
  const last = await db.values<[number, string, number]>(sql`SELECT id, hash, created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`)
  const lastApplied = last[0] ? Number(last[0][2]) : -1

  const statements = []
  for (const entry of journal.entries) {
    if (entry.when <= lastApplied) continue
    const text = await assets.getItem<string>(`${entry.tag}.sql`)
    if (typeof text !== 'string') throw new Error(`migration ${entry.tag} is missing from the server bundle`)
    const hash = createHash('sha256').update(text).digest('hex')
    for (const statement of text.split('--> statement-breakpoint')) {
      if (statement.trim()) statements.push(db.run(sql.raw(statement)))
    }
    statements.push(db.run(sql`INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (${hash}, ${entry.when})`))
  }
  if (statements.length === 0) return
  // One batch is one transaction: a crash mid-migration leaves the previous schema intact.
  await db.batch(statements as [typeof statements[number], ...typeof statements])
}
