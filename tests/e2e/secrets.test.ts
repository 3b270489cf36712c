import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, login } from '../support/http'
import { ADMIN_PASSWORD, ROOT, SESSION_SECRET, startServer } from '../support/server'

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

describe('secrets', () => {
  // `npm test` builds with canary values in ADMIN_PASSWORD and SESSION_SECRET (npm run build:canary).
  it('are never baked into the build output', () => {
    const canaries = ['canary-admin-password-4f1c', 'canary-session-secret-4f1c']
    let scanned = 0
    for (const path of files(join(ROOT, '.output'))) {
      if (statSync(path).size > 20 * 1024 * 1024) continue
      const text = readFileSync(path, 'latin1')
      scanned++
      for (const canary of canaries) expect(text.includes(canary), `${canary} in ${path}`).toBe(false)
    }
    expect(scanned).toBeGreaterThan(50)
  })

  it('are never written to the server log, even when requests fail', async () => {
    const server = await startServer()
    try {
      await login(server.url)
      await api(server.url, '/api/admin/login', { method: 'POST', json: { email: 'x@example.com', password: ADMIN_PASSWORD } })
      await api(server.url, '/api/uploads/init', { method: 'POST', body: '{bad', headers: { 'content-type': 'application/json' } })
      await api(server.url, '/api/admin/me', { cookie: 'em_admin=forged' })
    }
    finally {
      await server.stop()
    }
    expect(server.output()).not.toContain(ADMIN_PASSWORD)
    expect(server.output()).not.toContain(SESSION_SECRET)
  })
})
