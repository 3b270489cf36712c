import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { createStorage } from 'unstorage'
import fsLiteDriver from 'unstorage/drivers/fs-lite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as schema from '../../db/schema'
import { UPLOAD_STATUSES } from '#shared/enums'
import { applyMigrations } from '../../server/utils/migrations'
import { ROOT } from '../support/server'

const client = createClient({ url: ':memory:' })
const db = drizzle(client, { schema })
const { dataVersions, isPublicUpload, PUBLIC_UPLOAD, uploads } = schema

// The schema from the server's own migration runner, its SQL read through unstorage as Nitro's
// `useStorage('assets:migrations')` would (see gallery-query.test.ts).
vi.stubGlobal('useStorage', () => createStorage({ driver: fsLiteDriver({ base: join(ROOT, 'db/migrations') }) }))

beforeAll(() => applyMigrations(db))
afterAll(() => {
  vi.unstubAllGlobals()
  client.close()
})

const publicVersion = async () => (await db.select().from(dataVersions).where(eq(dataVersions.name, 'public')).get())!.version

/** Every status, confirmed or not. */
const states = UPLOAD_STATUSES.flatMap(status => [null, new Date(1_800_000_000_000)].map(confirmedAt => ({ status, confirmedAt })))

let n = 0
function row(state: { status: typeof UPLOAD_STATUSES[number], confirmedAt: Date | null }) {
  n++
  return { id: `public-test-${n}`, kind: 'photo' as const, fileName: 'a.jpg', contentType: 'image/jpeg', size: 1, storageKey: `orig/public-test-${n}.jpg`, createdAt: new Date(n), updatedAt: new Date(n), ...state }
}

describe('"public" in code and in the data_versions triggers', () => {
  it.each(states)('agree for an upload $status, confirmed at $confirmedAt: inserted, then deleted', async (state) => {
    const values = row(state)
    const before = await publicVersion()
    await db.insert(uploads).values(values)
    const inserted = await publicVersion()
    expect(inserted > before).toBe(isPublicUpload(state))
    // The query predicate says the same of the stored row.
    const found = await db.select({ id: uploads.id }).from(uploads).where(PUBLIC_UPLOAD).all()
    expect(found.some(item => item.id === values.id)).toBe(isPublicUpload(state))
    await db.delete(uploads).where(eq(uploads.id, values.id))
    expect((await publicVersion()) > inserted).toBe(isPublicUpload(state))
  })

  it.each(states.flatMap(from => states.map(to => ({ from, to }))))('agree when an upload goes from $from.status/$from.confirmedAt to $to.status/$to.confirmedAt', async ({ from, to }) => {
    const values = row(from)
    await db.insert(uploads).values(values)
    const before = await publicVersion()
    await db.update(uploads).set(to).where(eq(uploads.id, values.id))
    // The public changes when the upload was public before or is public after.
    expect((await publicVersion()) > before).toBe(isPublicUpload(from) || isPublicUpload(to))
    await db.delete(uploads).where(eq(uploads.id, values.id))
  })
})
