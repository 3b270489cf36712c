import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort } from '../support/ports'
import { baseEnv, SERVER_ENTRY } from '../support/server'

describe('the web app manifest', () => {
  // A venue screen back from a power cut may ask for the manifest before any API call: the
  // manifest, outside /api, must make the database ready itself (the first start applies the
  // migrations). So this server is started by hand and waited for on /api/health, the one route
  // that never touches the database (startServer waits on /api/event, which would make it ready);
  // the sweeper, which would make it ready a few seconds later, is off.
  it('answers as the first request of a fresh server, named after the event', async () => {
    const port = await freePort()
    const env = { ...baseEnv(mkdtempSync(join(tmpdir(), 'event-media-')), port), SWEEP_INTERVAL_SECONDS: '0' }
    const proc = spawn(process.execPath, [SERVER_ENTRY], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' })
    const url = `http://127.0.0.1:${port}`
    try {
      const deadline = Date.now() + 30_000
      for (;;) {
        const health = await fetch(`${url}/api/health`).catch(() => null)
        if (health?.status === 200) break
        if (Date.now() > deadline) throw new Error('server did not start')
        await new Promise(resolve => setTimeout(resolve, 100))
      }
      const response = await fetch(`${url}/manifest.webmanifest`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8')
      expect(await response.json()).toMatchObject({ start_url: '/', display: 'standalone', name: expect.any(String) })
    }
    finally {
      proc.kill('SIGTERM')
    }
  })
})
