import { join } from 'node:path'
import { createClient } from '@libsql/client'
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

vi.stubGlobal('useStorage', () => createStorage({ driver: fsLiteDriver({ base: join(ROOT, 'db/migrations') }) }))

const now = Date.now()
const upload = (id: string, at: number) => ({
  id, status: 'approved' as const, kind: 'photo' as const, fileName: 'a.jpg', contentType: 'image/jpeg', size: 1,
  storageKey: `orig/${id}`, displayKey: `disp/${id}`, createdAt: new Date(at), confirmedAt: new Date(at), updatedAt: new Date(at),
})
const comment = (id: string, uploadId: string, status: 'approved' | 'pending', at: number, text: string) => ({
  id, uploadId, status, author: `A ${id}`, text, createdAt: new Date(at), updatedAt: new Date(at),
})

beforeAll(async () => {
  await applyMigrations(db)
  await db.insert(schema.uploads).values([upload('u1', now), upload('u2', now - 1000)])
  await db.insert(schema.hearts).values([
    { uploadId: 'u1', guestId: 'g1', createdAt: new Date() },
    { uploadId: 'u1', guestId: 'g2', createdAt: new Date() },
    { uploadId: 'u2', guestId: 'g1', createdAt: new Date() },
  ])
  // Ids chosen to collide with the uploads' own: a bare `id` in a subquery would be the comment's.
  await db.insert(schema.comments).values([
    comment('u2', 'u1', 'approved', now + 1, 'primeiro'),
    comment('c2', 'u1', 'approved', now + 2, 'último'),
    comment('c3', 'u1', 'pending', now + 3, 'pendente'),
  ])
})
afterAll(() => {
  vi.unstubAllGlobals()
  client.close()
})

describe('gallery page counts', () => {
  it('carry each item\'s hearts, approved comments and latest approved comment', async () => {
    const rows = await galleryPageQuery(db, false).all({ limit: 10 })
    expect(rows.map(row => [row.id, row.hearts, row.commentCount, row.latestComment])).toEqual([
      ['u1', 2, 2, JSON.stringify(['A c2', 'último'])],
      ['u2', 1, 0, null],
    ])
  })

  it('an upload\'s delete takes its hearts and comments with it', async () => {
    await db.delete(schema.uploads).where(schema.PUBLIC_UPLOAD)
    const left = await client.execute('SELECT (SELECT count(*) FROM hearts) + (SELECT count(*) FROM comments) AS n')
    expect(Number(left.rows[0]!.n)).toBe(0)
  })
})
