// npm run db:backup [-- <file>]: a consistent copy of the local database, safe while the server
// runs (VACUUM INTO reads one snapshot and writes a compact, WAL-free file). Restore: stop the
// server, copy the file over DATABASE_URL's path (removing any -wal/-shm beside it), start again.
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createClient } from '@libsql/client'

const url = process.env.DATABASE_URL ?? 'file:.data/event.db'
if (!url.startsWith('file:')) {
  console.error('[backup] DATABASE_URL is a remote database: use your provider\'s backups (Turso: point-in-time restore, `turso db shell <db> .dump`).')
  process.exit(2)
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
const target = resolve(process.argv[2] ?? `.data/backups/event-${stamp}.db`)
if (existsSync(target)) {
  console.error(`[backup] ${target} exists; not overwriting it.`)
  process.exit(2)
}
mkdirSync(dirname(target), { recursive: true })
const client = createClient({ url, timeout: 10_000 })
await client.execute({ sql: 'VACUUM INTO ?', args: [target] })
client.close()
const check = createClient({ url: `file:${target}` })
const { rows } = await check.execute('PRAGMA integrity_check')
check.close()
if (rows[0]?.[0] !== 'ok') {
  console.error(`[backup] the copy failed its integrity check: ${rows[0]?.[0]}`)
  process.exit(1)
}
console.log(`[backup] ${target}`)
