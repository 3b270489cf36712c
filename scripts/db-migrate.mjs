// Applies db/migrations to DATABASE_URL (a remote Turso/libSQL database, or the local file) with
// drizzle's own migrator: the same bookkeeping table the server uses when it migrates at start.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'

const url = process.env.DATABASE_URL ?? 'file:.data/event.db'
if (url.startsWith('file:')) mkdirSync(dirname(url.slice(5)), { recursive: true })
const client = createClient({ url, authToken: process.env.DATABASE_AUTH_TOKEN })
await migrate(drizzle(client), { migrationsFolder: new URL('../db/migrations', import.meta.url).pathname })
client.close()
console.log(`[db] migrations applied to ${url.replace(/\/\/[^@/]*@/, '//***@')}`)
