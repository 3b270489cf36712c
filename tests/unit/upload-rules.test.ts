import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { createStorage } from 'unstorage'
import fsLiteDriver from 'unstorage/drivers/fs-lite'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { eventSettings, pendingDeletions, uploads } from '../../db/schema'
import { ErrorCode } from '#shared/errors'
import { ROOT } from '../support/server'
import { createMemoryMediaStore, putSigned } from '../support/memory-store'

/*
 * The rules of an upload's life that only e2e reached before: confirm and abort racing for one
 * upload, the guest's undo window, and delete. They run here on a real libSQL file (migrated by
 * the server's own runner) and an in-memory MediaStore, without Nitro: the modules import what
 * they use.
 */
const dir = mkdtempSync(join(tmpdir(), 'upload-rules-'))
Object.assign(process.env, {
  ADMIN_PASSWORD: 'unit-admin-password',
  SESSION_SECRET: 'unit-session-secret-0123456789abcdef',
  ALLOWED_ADMIN_EMAILS: 'admin@example.com',
  PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  DATABASE_URL: `file:${join(dir, 'event.db')}`,
  UNDO_WINDOW_SECONDS: '900',
})
// Nitro hands the migrations to the server as `assets:migrations`; here the folder itself.
vi.stubGlobal('useStorage', () => createStorage({ driver: fsLiteDriver({ base: join(ROOT, 'db/migrations') }) }))

const { dbReady, useDb } = await import('../../server/utils/db')
const { setMediaStore } = await import('../../server/utils/storage/use-media-store')
const { initUpload } = await import('../../server/utils/uploads/init')
const { confirmUpload } = await import('../../server/utils/uploads/confirm')
const { abortUpload } = await import('../../server/utils/uploads/abort')
const { authorizeUndo, undoUpload } = await import('../../server/utils/uploads/undo')
const { deleteUpload } = await import('../../server/utils/uploads/delete')
const { ownedKeys } = await import('../../server/utils/storage/keys')

const store = createMemoryMediaStore()
let photo: Buffer

beforeAll(async () => {
  setMediaStore(store)
  await dbReady()
  photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().toBuffer()
})
afterAll(() => {
  setMediaStore(null)
  vi.unstubAllGlobals()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => {
  store.failDeletes = false
})

/** An upload initialised and its bytes sent, as a guest's page does. */
async function sent() {
  const { answer: init } = await initUpload({ fileName: 'IMG_1.JPG', contentType: 'image/jpeg', size: photo.length, author: 'Ana', message: '' })
  if ('duplicate' in init || init.upload.type !== 'single') throw new Error('expected a new upload sent in a single PUT')
  putSigned(store, init.upload.url, photo)
  return init
}

const rowOf = (id: string) => useDb().select().from(uploads).where(eq(uploads.id, id)).get()

/** The error an h3 call threw: its status and the contract's code. */
async function failure(work: Promise<unknown>): Promise<{ status: number, code: string }> {
  try {
    await work
  }
  catch (error) {
    const { statusCode, data } = error as { statusCode: number, data?: { code?: string } }
    return { status: statusCode, code: data?.code ?? '' }
  }
  throw new Error('expected a failure')
}

describe('confirm and abort racing for one upload', () => {
  it('exactly one wins, every time: confirmed with its bytes (abort 409), or gone with them (confirm 404)', async () => {
    const winners = new Set<string>()
    for (let round = 0; round < 20; round++) {
      const { id } = await sent()
      // Side by side, or the abort a moment later (while the confirm is inside its work), so that each may win.
      const abortLater = async () => {
        if (round % 2) await new Promise(resolve => setTimeout(resolve, 1 + (round % 5)))
        return abortUpload(id)
      }
      // And every fourth round the abort first: a confirm that reads little can finish before an abort starts.
      const confirmLater = async () => {
        if (round % 4 === 0) await new Promise(resolve => setTimeout(resolve, 1))
        return confirmUpload(id)
      }
      const [confirmed, aborted] = await Promise.allSettled([confirmLater(), abortLater()])
      const row = await rowOf(id)
      winners.add(confirmed.status === 'fulfilled' ? 'confirm' : 'abort')
      if (confirmed.status === 'fulfilled') {
        // Post-moderation (the default): approved at once.
        expect(confirmed.value).toEqual({ id, status: 'approved' })
        expect(aborted.status).toBe('rejected')
        expect(await failure(Promise.reject((aborted as PromiseRejectedResult).reason))).toEqual({ status: 409, code: ErrorCode.ALREADY_CONFIRMED })
        expect(row?.confirmedAt).toBeInstanceOf(Date)
        expect(store.objects.get(row!.storageKey)).toEqual(photo)
      }
      else {
        expect(aborted).toEqual({ status: 'fulfilled', value: { id, aborted: true } })
        expect(await failure(Promise.reject(confirmed.reason))).toEqual({ status: 404, code: ErrorCode.NOT_FOUND })
        expect(row).toBeUndefined()
        expect([...store.objects.keys()].filter(key => key.includes(id))).toEqual([])
      }
    }
    expect([...winners].sort()).toEqual(['abort', 'confirm'])
  })

  it('an abort after the confirm answered is 409 ALREADY_CONFIRMED, and a confirm after an abort 404', async () => {
    const first = await sent()
    expect(await confirmUpload(first.id)).toEqual({ id: first.id, status: 'approved' })
    expect(await failure(abortUpload(first.id))).toEqual({ status: 409, code: ErrorCode.ALREADY_CONFIRMED })
    const second = await sent()
    expect(await abortUpload(second.id)).toEqual({ id: second.id, aborted: true })
    expect(await failure(confirmUpload(second.id))).toEqual({ status: 404, code: ErrorCode.NOT_FOUND })
  })
})

describe('the guest\'s undo', () => {
  it('removes the upload, every object it owns and the cover, with its token inside the window', async () => {
    const { id, undoToken } = await sent()
    await confirmUpload(id)
    const row = (await rowOf(id))!
    await useDb().update(eventSettings).set({ coverUploadId: id })
    expect(await undoUpload(id, undoToken)).toEqual({ id, deleted: true })
    expect(await rowOf(id)).toBeUndefined()
    for (const key of ownedKeys(row)) expect(store.objects.has(key), key).toBe(false)
    expect((await useDb().select().from(eventSettings).get())!.coverUploadId).toBeNull()
  })

  it('refuses another upload\'s token (403 UNDO_TOKEN_INVALID) and a token past the window (409 UNDO_EXPIRED), removing nothing', async () => {
    const mine = await sent()
    const other = await sent()
    await confirmUpload(mine.id)
    expect(await failure(undoUpload(mine.id, other.undoToken))).toEqual({ status: 403, code: ErrorCode.UNDO_TOKEN_INVALID })
    expect(await failure(undoUpload(mine.id, undefined))).toEqual({ status: 403, code: ErrorCode.UNDO_TOKEN_INVALID })
    const row = (await rowOf(mine.id))!
    const edge = new Date(row.confirmedAt!.getTime() + 900_000)
    expect(() => authorizeUndo(row, mine.undoToken, edge)).not.toThrow()
    expect(() => authorizeUndo(row, mine.undoToken, new Date(edge.getTime() + 1))).toThrow(expect.objectContaining({ statusCode: 409, data: { code: ErrorCode.UNDO_EXPIRED } }))
    // A wrong token is 403 whatever the window: someone without it learns nothing.
    expect(() => authorizeUndo(row, other.undoToken, new Date(edge.getTime() + 1))).toThrow(expect.objectContaining({ statusCode: 403 }))
    expect(await rowOf(mine.id)).toBeDefined()
    expect(store.objects.get(row.storageKey)).toEqual(photo)
  })

  it('is 404 for an upload not confirmed yet: until then it is the guest\'s abort', async () => {
    const { id, undoToken } = await sent()
    expect(await failure(undoUpload(id, undoToken))).toEqual({ status: 404, code: ErrorCode.NOT_FOUND })
  })
})

describe('deleting an upload', () => {
  it('queues every object in the transaction and removes them after it; what storage refuses stays queued', async () => {
    const { id } = await sent()
    await confirmUpload(id)
    const row = (await rowOf(id))!
    store.failDeletes = true
    expect(await deleteUpload(id)).toEqual({ id, deleted: true })
    expect(await rowOf(id)).toBeUndefined()
    const queued = (await useDb().select().from(pendingDeletions).all()).map(item => item.key)
    expect(queued).toEqual(expect.arrayContaining(ownedKeys(row)))
    expect(store.objects.get(row.storageKey)).toEqual(photo)
  })

  it('is 404 for an unknown id, and deletes nothing', async () => {
    const before = store.objects.size
    expect(await failure(deleteUpload('no-such-upload-0000000'))).toEqual({ status: 404, code: ErrorCode.NOT_FOUND })
    expect(store.objects.size).toBe(before)
  })
})
