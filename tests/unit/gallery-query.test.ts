import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { fillPlaceholders } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema'
import { galleryPageQuery } from '../../server/utils/gallery'
import { ROOT } from '../support/server'

const client = createClient({ url: ':memory:' })
const db = drizzle(client, { schema })

beforeAll(async () => {
  const dir = join(ROOT, 'db/migrations')
  for (const file of readdirSync(dir).filter(name => name.endsWith('.sql')).sort()) {
    for (const statement of readFileSync(join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await client.execute(statement)
    }
  }
})
afterAll(() => client.close())

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
})
