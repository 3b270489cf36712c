// First run on a fresh clone: the server refuses to start without its mandatory configuration,
// so write a `.env` with generated secrets (never overwriting one that exists) and say how to log in.
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { envPath, loginLines } from './admin-login.mjs'

if (existsSync(envPath)) {
  console.log('[setup] .env exists; keeping it.')
}
else {
  const email = process.env.ADMIN_EMAIL ?? 'admin@example.com'
  const password = randomBytes(9).toString('base64url')
  const port = process.env.PORT ?? '3000'
  writeFileSync(envPath, [
    '# Written by `npm run setup` on first run. Edit freely; see README.md, "Configuration".',
    `ADMIN_PASSWORD=${password}`,
    `SESSION_SECRET=${randomBytes(32).toString('base64url')}`,
    `ALLOWED_ADMIN_EMAILS=${email}`,
    `PUBLIC_BASE_URL=http://localhost:${port}`,
    'DATABASE_URL=file:.data/event.db',
    'MEDIA_DIR=.data/media',
    '',
  ].join('\n'), { mode: 0o600 })
  console.log('[setup] Wrote .env.')
  console.log(loginLines({ address: `http://localhost:${port}/admin/login`, email, password }).join('\n'))
}
