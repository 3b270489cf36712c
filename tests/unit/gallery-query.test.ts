import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { fillPlaceholders } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { createStorage } from 'unstorage'
import fsLiteDriver from 'unstorage/drivers/fs-lite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as schema from '../../db/schema'
import { galleryPageQuery } from '../../server/utils/uploads/gallery'
import { applyMigrations } from '../../server/utils/migrations'
import { ROOT } from '../support/server'

const client = createClient({ url: ':memory:' })
const db = drizzle(client, { schema })

// The schema comes from the server's own migration runner. In the server, Nitro hands it
// db/migrations as the server asset `assets:migrations` (nuxt.config.ts); outside Nitro, the same
// folder through unstorage's file-system driver stands in for Nitro's `useStorage`.
vi.stubGlobal('useStorage', (base: string) => {
  expect(base).toBe('assets:migrations')
  return createStorage({ driver: fsLiteDriver({ base: join(ROOT, 'db/migrations') }) })
})

beforeAll(() => applyMigrations(db))
afterAll(() => {
  vi.unstubAllGlobals()
  client.close()
})

async function plan(query: { toSQL(): { sql: string, params: unknown[] } }, values: Record<string, unknown>): Promise<string> {
  const { sql, params } = query.toSQL()
  const result = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: fillPlaceholders(params, values) as never[] })
  return result.rows.map(row => String(row.detail)).join('\n')
}

describe('gallery page query', () => {
  it('seeks the partial index of displayable uploads on the first page, in index order (no sort, no offset)', async () => {
    const text = await plan(galleryPageQuery(db, false), { limit: 25 })
    expect(text).toMatch(/SEARCH uploads USING INDEX uploads_gallery_idx \(status=\?\)/)
    expect(text).not.toMatch(/TEMP B-TREE/)
    expect(galleryPageQuery(db, false).toSQL().sql).not.toMatch(/offset/i)
  })

  it('seeks straight to the cursor position on later pages', async () => {
    const text = await plan(galleryPageQuery(db, true), { createdAt: 1_800_000_000_000, id: 'abc', limit: 25 })
    expect(text).toMatch(/SEARCH uploads USING INDEX uploads_gallery_idx \(status=\? AND \(created_at,id\)<\(\?,\?\)\)/)
    expect(text).not.toMatch(/TEMP B-TREE/)
  })

  it('seeks the partial index of a moment for one moment, first and later pages alike, in index order', async () => {
    const first = await plan(galleryPageQuery(db, false, 'moment'), { filter: 'm1', limit: 25 })
    expect(first).toMatch(/SEARCH uploads USING INDEX uploads_moment_gallery_idx \(moment_id=\? AND status=\?\)/)
    expect(first).not.toMatch(/TEMP B-TREE/)
    const later = await plan(galleryPageQuery(db, true, 'moment'), { filter: 'm1', createdAt: 1_800_000_000_000, id: 'abc', limit: 25 })
    expect(later).toMatch(/SEARCH uploads USING INDEX uploads_moment_gallery_idx \(moment_id=\? AND status=\? AND \(created_at,id\)<\(\?,\?\)\)/)
    expect(later).not.toMatch(/TEMP B-TREE/)
  })

  it('seeks the partial index of a challenge for its answers', async () => {
    const text = await plan(galleryPageQuery(db, true, 'challenge'), { filter: 'c1', createdAt: 1_800_000_000_000, id: 'abc', limit: 25 })
    expect(text).toMatch(/SEARCH uploads USING INDEX uploads_challenge_gallery_idx \(challenge_id=\? AND status=\? AND \(created_at,id\)<\(\?,\?\)\)/)
    expect(text).not.toMatch(/TEMP B-TREE/)
  })
})
