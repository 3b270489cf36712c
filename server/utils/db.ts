import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { sql, type SQL } from 'drizzle-orm'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import * as schema from '../../db/schema'
import { ErrorCode } from '#shared/errors'
import { applyMigrations } from './migrations'
import { withWriteTurns } from './db-write-turns'
import { useConfig } from './config'
import { apiError } from './http/errors'

export type Db = LibSQLDatabase<typeof schema>
/** What a `useDb().transaction(…)` callback gets: queries that commit or roll back together. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0]

let client: Client | undefined
let db: Db | undefined
let ready: Promise<void> | undefined

function localPath(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined
  return url.slice('file:'.length).replace(/^\/\/(?=\/)/, '')
}

export function useDbClient(): Client {
  if (client) return client
  const { DATABASE_URL, DATABASE_AUTH_TOKEN, DATABASE_BUSY_TIMEOUT_MS } = useConfig()
  const path = localPath(DATABASE_URL)
  if (path) mkdirSync(dirname(path), { recursive: true })
  const opened = createClient({
    url: DATABASE_URL,
    authToken: DATABASE_AUTH_TOKEN,
    // A busy timeout on every pooled connection (including those a transaction holds), so a
    // writer waits for another process's instead of failing at once with SQLITE_BUSY.
    timeout: DATABASE_BUSY_TIMEOUT_MS,
  })
  // This process's own writers take turns without blocking the event loop (db-write-turns.ts);
  // a remote database (Turso) answers over the network and needs none.
  client = path ? withWriteTurns(opened, DATABASE_BUSY_TIMEOUT_MS) : opened
  return client
}

/** The drizzle database. Await `dbReady()` (the API middleware does) before the first query. */
export function useDb(): Db {
  db ??= drizzle(useDbClient(), { schema })
  return db
}

/**
 * A statement of a hot path, built once per database (drizzle's `prepare`): each run binds its
 * values and skips building the SQL again, which a burst of guests paid on every request.
 */
export function builtOnce<T>(build: (database: Db) => T): () => T {
  const built = new WeakMap<Db, T>()
  return () => {
    const database = useDb()
    let statement = built.get(database)
    if (!statement) built.set(database, statement = build(database))
    return statement
  }
}

/**
 * A prepared statement's value bound as the driver takes it, past drizzle's column encoding (which
 * calls a date column's encoder even on null): the caller passes what the column stores, a date
 * in milliseconds. A placeholder inside a comparison (`eq`, `lt`) is bound this way already.
 */
export function storedValue(name: string): SQL {
  return sql`${sql.placeholder(name)}`
}

/** Applies pending migrations once per process; WAL for the local file. */
export function dbReady(): Promise<void> {
  ready ??= (async () => {
    const database = useDb()
    if (localPath(useConfig().DATABASE_URL)) {
      // WAL lets the gallery read while an upload is being confirmed; it persists in the file.
      await useDbClient().execute('PRAGMA journal_mode = WAL')
    }
    await applyMigrations(database)
  })().catch((error) => {
    ready = undefined
    throw error
  })
  return ready
}

/**
 * `dbReady()` for a request that reads the database: the first one after a start applies the
 * migrations, whichever route it is (an API call, or the web app manifest a screen fetches first
 * after a power cut); a database that cannot be opened answers 503 DATABASE_UNAVAILABLE.
 */
export async function dbReadyForRequest(): Promise<void> {
  try {
    await dbReady()
  }
  catch (error) {
    console.error('[db] not ready:', error instanceof Error ? error.message : error)
    throw apiError(503, ErrorCode.DATABASE_UNAVAILABLE, 'Database unavailable')
  }
}

export function isDatabaseBusy(error: unknown): boolean {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current)
    const { code, message } = current as { code?: unknown, message?: unknown }
    if (typeof code === 'string' && /SQLITE_(BUSY|LOCKED)/.test(code)) return true
    if (typeof message === 'string' && /SQLITE_(BUSY|LOCKED)|database is locked/.test(message)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
