import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { describe, expect, it } from 'vitest'
import { ROOT, startServer } from '../support/server'
import { jpeg } from '../support/fixtures'
import { uploadFile } from '../support/uploads'

describe('database backup', () => {
  it('copies a consistent database while the server runs, and the copy restores', async () => {
    const server = await startServer()
    try {
      const photo = await jpeg()
      for (let i = 0; i < 5; i++) await uploadFile(server.url, photo, { contentType: 'image/jpeg', size: photo.length })
      const target = join(server.dir, 'backup.db')
      const run = spawnSync(process.execPath, [join(ROOT, 'scripts/db-backup.mjs'), target], { env: { ...process.env, DATABASE_URL: server.env.DATABASE_URL }, encoding: 'utf8' })
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout).toContain(target)

      const copy = createClient({ url: `file:${target}` })
      expect((await copy.execute('SELECT count(*) AS n FROM uploads WHERE confirmed_at IS NOT NULL')).rows[0]!.n).toBe(5)
      copy.close()
      // Refuses to overwrite an earlier backup.
      expect(spawnSync(process.execPath, [join(ROOT, 'scripts/db-backup.mjs'), target], { env: { ...process.env, DATABASE_URL: server.env.DATABASE_URL } }).status).toBe(2)

      await server.stop()
      const restored = await startServer({ DATABASE_URL: `file:${target}`, MEDIA_DIR: server.mediaDir })
      try {
        const stats = await fetch(`${restored.url}/api/stats`).then(r => r.json())
        expect(stats.approved).toBe(5)
      }
      finally {
        await restored.stop()
      }
    }
    finally {
      await server.stop()
    }
  })
})
