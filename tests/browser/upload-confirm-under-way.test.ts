import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { noisyJpeg, tempDir } from '../support/media'
import { until } from './support/browser'
import { uploadRows } from './support/db'
import { useBrowser } from './support/fixture'
import { startProxy, type SeenRequest, type TestProxy } from './support/proxy'

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/**
 * A confirm can still be running on the server when the page that asked it is gone (a reload on a
 * busy night) or when another of the phone's senders asked it. The server marks such an upload
 * claimed (server/utils/uploads/claim.ts) and refuses its PUTs and refreshes with 409
 * ALREADY_CONFIRMED. The page must take that as "the server has it" and ask confirm, which waits
 * for the running one, instead of showing the file failed. The claim is written into the
 * database by the test, as a confirm under way leaves it (with a short lease, standing for a
 * confirm that ends without finishing), because no slow confirm can be timed from outside.
 */
describe('/enviar: a file whose confirm is under way on the server ends sent, not failed', () => {
  const server = useTestServer({ admin: true, db: true })
  const pages = useBrowser({ server })
  let proxy: TestProxy
  let dir: string
  let context: BrowserContext | undefined

  beforeAll(async () => {
    dir = tempDir()
    proxy = await startProxy(server.url)
    const event = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', moderation: 'post' }, cookie: server.cookie })
    expect(event.status).toBe(200)
  })
  afterEach(async () => {
    proxy.setDelay(null)
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    await proxy?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  async function phone(): Promise<Page> {
    context = await pages.context('phone', { baseURL: proxy.url })
    const page = await context.newPage()
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    return page
  }

  /** Marks the upload as a confirm under way would, for `leaseMs` from now. */
  const claimForConfirm = (id: string, leaseMs: number) =>
    server.db.execute({ sql: 'update uploads set claim = \'confirm\', claimed_until = ? where id = ?', args: [Date.now() + leaseMs, id] })

  const idOf = (request: SeenRequest) => /\/api\/uploads\/([^/]+)\//.exec(request.path)?.[1] ?? /\/staging\/orig\/([\w-]{20})/.exec(request.path)?.[1]

  /** The photo's own bytes (its public images, sent beside them, are best-effort extras). */
  const isOriginalPut = (request: SeenRequest) => request.method === 'PUT' && request.path.includes('/staging/orig/')

  async function expectSentOnce(page: Page, file: string, fileName: string) {
    const row = page.locator('[data-testid=upload-item]')
    await until(async () => (await row.getAttribute('data-state')) === 'done', 60_000, 'the row shown sent')
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 10_000 })
    const stored = (await uploadRows(server.dbPath)).filter(upload => upload.file_name === fileName)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ status: 'approved', size: readFileSync(file).length, content_hash: sha256(file) })
    expect(stored[0]!.confirmed_at).not.toBeNull()
    expect(sha256(join(server.mediaDir, stored[0]!.storage_key))).toBe(sha256(file))
  }

  it('a reload while its confirm runs: the page asks confirm again, sends no byte twice, and shows the file sent', async () => {
    const page = await phone()
    const file = await noisyJpeg(dir, 'IMG_CLAIMED_RELOAD.jpg', 400_000)
    let claimed: Promise<unknown> | null = null
    // The page's confirm reaches a server that is slow to answer it: the test marks the upload
    // claimed as that confirm would, and the request itself arrives a minute later, when the
    // test is over (and is then answered as a confirm of a confirmed upload).
    proxy.setDelay((request) => {
      if (request.method !== 'POST' || !request.path.endsWith('/confirm') || claimed) return 0
      claimed = claimForConfirm(idOf(request)!, 4_000)
      return 60_000
    })
    const since = proxy.seen.length
    await page.setInputFiles('input[type=file]', file)
    await until(() => claimed, 30_000, 'the confirm asked')
    await claimed
    const originals = () => proxy.seen.slice(since).filter(isOriginalPut)
    expect(originals().map(request => request.status)).toEqual([200])

    const reloadedAt = proxy.seen.length
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    await expectSentOnce(page, file, 'IMG_CLAIMED_RELOAD.jpg')
    const after = proxy.seen.slice(reloadedAt).filter(request => request.path.startsWith('/api/uploads/') || request.method === 'PUT')
    // The resumed queue's refresh is told the upload is being confirmed; no PUT follows, and its
    // confirm waits for the lease to end, then confirms.
    expect(after.filter(isOriginalPut)).toEqual([])
    expect(after.filter(request => request.path.endsWith('/refresh')).map(request => request.status)).toEqual([409])
    expect(after.filter(request => request.path.endsWith('/confirm')).map(request => request.status)).toEqual([200])
  }, 120_000)

  it('a PUT refused because a confirm is under way: the page asks confirm, and the file ends sent', async () => {
    const page = await phone()
    const file = await noisyJpeg(dir, 'IMG_CLAIMED_PUT.jpg', 430_000)
    let claimed: Promise<unknown> | null = null
    // The upload becomes claimed between its signed URL and its PUT, as when the phone's other
    // sender confirmed it meanwhile; that confirm ends without finishing (its lease lapses).
    proxy.setDelay((request) => {
      if (!isOriginalPut(request) || claimed) return 0
      claimed = claimForConfirm(idOf(request)!, 3_000)
      return 1_500
    })
    const since = proxy.seen.length
    await page.setInputFiles('input[type=file]', file)
    await expectSentOnce(page, file, 'IMG_CLAIMED_PUT.jpg')
    const seen = proxy.seen.slice(since)
    const statusesOf = (what: (request: SeenRequest) => boolean) => seen.filter(what).map(request => request.status)
    // The refused PUT, then confirm: it waited for the lease, found no bytes (409 OBJECT_MISSING),
    // and the queue sent them once more and confirmed.
    expect(statusesOf(isOriginalPut)).toEqual([409, 200])
    expect(statusesOf(request => request.path.endsWith('/confirm'))).toEqual([409, 200])
  }, 120_000)
})
