import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { photo, tempDir } from '../support/media'
import { screenshot, until } from './support/browser'
import { uploadRows } from './support/db'
import { useBrowser } from './support/fixture'

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** A phone on /enviar, with every upload API call it makes (path, method, status) recorded. */
async function guestPhone(context: BrowserContext) {
  const page = await context.newPage()
  const calls: { path: string, method: string, status: number }[] = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.pathname.startsWith('/api/uploads') || url.pathname.startsWith('/media/')) calls.push({ path: url.pathname, method: response.request().method(), status: response.status() })
  })
  await page.goto('/enviar')
  await page.locator('main[data-ready]').waitFor()
  return { context, page, calls }
}

const rows = (page: Page) => page.locator('[data-testid=upload-item]')
const states = (page: Page) => rows(page).evaluateAll(els => els.map(el => el.getAttribute('data-state')))

/** The message, then the files: each goes the moment it is picked. */
async function send(page: Page, files: string[], message: string) {
  await page.fill('[name=message]', message)
  for (const file of files) await page.setInputFiles('input[type=file]', file)
  await until(async () => (await rows(page).count()) === files.length, 15_000, 'rows')
  await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
}

describe('/enviar: bytes already sent, and "Remover" within the window (phone, real server)', () => {
  const server = useTestServer({ env: { UNDO_WINDOW_SECONDS: '600' } })
  const pages = useBrowser({ server })
  let dir: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    dir = tempDir()
  })
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close()
  })
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
  })

  async function phone() {
    const opened = await guestPhone(await pages.context('phone'))
    contexts.push(opened.context)
    return opened
  }

  it('the same photo picked twice is one row and goes once: one init, one record', async () => {
    const file = await photo(dir, 'IMG_DUAS_VEZES.jpg', 'Duas', 30)
    const { page, calls } = await phone()
    await page.fill('[name=message]', 'Escolhida duas vezes')
    await page.setInputFiles('input[type=file]', file)
    await until(async () => (await rows(page).count()) === 1, 15_000, 'the row')
    await page.setInputFiles('input[type=file]', file)
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 30_000 })
    expect(await states(page)).toEqual(['done'])
    expect((await page.locator('[data-testid=upload-success-count]').textContent())!.trim()).toBe('1 arquivo enviado. Muito obrigado!')
    expect(calls.filter(call => call.path === '/api/uploads/init')).toHaveLength(1)
    const stored = (await uploadRows(server.dbPath)).filter(row => row.message === 'Escolhida duas vezes')
    expect(stored).toHaveLength(1)
    expect(sha256(`${server.mediaDir}/${stored[0]!.storage_key}`)).toBe(sha256(file))
    await screenshot(page, 'enviar-phone-duplicate')
  })

  it('a second phone sending the same bytes is told they are there: init answers the earlier upload, nothing is stored, no "Remover"', async () => {
    const file = await photo(dir, 'IMG_OUTRO_CELULAR.jpg', 'Outro', 120)
    const first = await phone()
    await send(first.page, [file], 'Primeiro celular')
    const [original] = (await uploadRows(server.dbPath)).filter(row => row.message === 'Primeiro celular')
    expect(original).toBeDefined()

    const second = await phone()
    await send(second.page, [file], 'Segundo celular')
    expect(await states(second.page)).toEqual(['duplicate'])
    expect((await rows(second.page).locator('.upload-item__status').textContent())!.trim()).toBe('Já enviado')
    expect(await second.page.locator('[data-testid=upload-remove]').count()).toBe(0)
    // One init, answered 200 (the earlier upload), and no bytes sent, no confirm (the page's own
    // read of what this phone sent before, GET /api/uploads/mine, is no sending).
    const sending = second.calls.filter(call => !(call.method === 'GET' && call.path === '/api/uploads/mine'))
    expect(sending.map(call => [call.method, call.path, call.status])).toEqual([['POST', '/api/uploads/init', 200]])
    expect((await uploadRows(server.dbPath)).filter(row => row.message === 'Segundo celular')).toEqual([])
    // The first phone still may take its own photo back; the second never could.
    expect(await rows(first.page).locator('[data-testid=upload-remove]').count()).toBe(1)
    await screenshot(second.page, 'enviar-phone-duplicate-other-phone')
  })

  it('the result counts only what was new: "1 arquivo enviado, 2 já estavam na galeria"', async () => {
    const [a, b, fresh] = await Promise.all([photo(dir, 'IMG_A.jpg', 'A', 40), photo(dir, 'IMG_B.jpg', 'B', 80), photo(dir, 'IMG_NOVA.jpg', 'Nova', 160)])
    const first = await phone()
    await send(first.page, [a, b], 'Antes')
    const second = await phone()
    await send(second.page, [a, b, fresh], 'Depois')
    expect([...await states(second.page)].sort()).toEqual(['done', 'duplicate', 'duplicate'])
    expect((await second.page.locator('[data-testid=upload-success-count]').textContent())!.trim()).toBe('1 arquivo enviado, 2 já estavam na galeria. Muito obrigado!')
  })

  it('"Remover" on a sent photo asks first, then removes it: the row goes, the record and the gallery item too, and the page says so', async () => {
    const file = await photo(dir, 'IMG_ENGANO.jpg', 'Engano', 260)
    const keep = await photo(dir, 'IMG_FICA.jpg', 'Fica', 300)
    const { page } = await phone()
    await send(page, [file, keep], 'Mandei errado')
    const sent = (await uploadRows(server.dbPath)).filter(row => row.message === 'Mandei errado')
    expect(sent).toHaveLength(2)
    const wrong = sent.find(row => row.file_name === 'IMG_ENGANO.jpg')!
    const row = page.locator('[data-testid=upload-item][data-name="IMG_ENGANO.jpg"]')
    const remove = row.locator('[data-testid=upload-remove]')
    expect((await remove.textContent())!.trim()).toBe('Remover')
    await screenshot(page, 'enviar-phone-remove')
    // It asks first: answered "no", nothing happens.
    const questions: string[] = []
    page.once('dialog', (dialog) => {
      questions.push(dialog.message())
      void dialog.dismiss()
    })
    await remove.click()
    await until(async () => questions.length === 1, 5000, 'the question')
    expect(questions[0]).toBe('Remover IMG_ENGANO.jpg da galeria? Ninguém mais vai ver este arquivo.')
    expect(await row.count()).toBe(1)
    expect((await uploadRows(server.dbPath)).filter(r => r.message === 'Mandei errado')).toHaveLength(2)
    // Answered "yes": the row goes, and the page says so.
    page.once('dialog', dialog => void dialog.accept())
    await remove.click()
    await until(async () => (await row.count()) === 0, 10_000, 'row removed')
    expect((await page.locator('[data-testid=upload-removed]').textContent())!.trim()).toBe('IMG_ENGANO.jpg foi removido da galeria.')
    expect((await uploadRows(server.dbPath)).filter(r => r.message === 'Mandei errado').map(r => r.file_name)).toEqual(['IMG_FICA.jpg'])
    const gallery = (await api(server.url, '/api/gallery?limit=100')).body.items as { id: string }[]
    expect(gallery.map(item => item.id)).not.toContain(wrong.id)
    // The other photo is still there, with its own button, and stays gone after a reload.
    expect(await states(page)).toEqual(['done'])
    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    await until(async () => (await rows(page).count()) === 1, 10_000, 'restored rows')
    expect(await page.locator('[data-testid=upload-item][data-name="IMG_FICA.jpg"] [data-testid=upload-remove]').count()).toBe(1)
  })
})

describe('/enviar: "Remover" after the window (phone, real server)', () => {
  const WINDOW_SEC = 4
  const server = useTestServer({ env: { UNDO_WINDOW_SECONDS: String(WINDOW_SEC) } })
  const pages = useBrowser({ server })
  let dir: string
  let context: BrowserContext | undefined

  beforeAll(async () => {
    dir = tempDir()
  })
  afterAll(async () => {
    await context?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('the button goes by itself when the window closes, and the photo stays', async () => {
    const file = await photo(dir, 'IMG_TARDE.jpg', 'Tarde', 200)
    const opened = await guestPhone(await pages.context('phone'))
    context = opened.context
    const { page } = opened
    await send(page, [file], 'Tarde demais')
    const sentAt = Date.now()
    // The row's "Remover", the only one for the photo (the server's entry for it sits in the same row).
    const remove = page.locator('[data-testid=upload-remove]')
    expect(await rows(page).locator('[data-testid=upload-remove]').count()).toBe(1)
    await until(async () => (await remove.count()) === 0, (WINDOW_SEC + 3) * 1000, 'button gone')
    expect(Date.now() - sentAt).toBeGreaterThan((WINDOW_SEC - 1) * 1000)
    expect(await states(page)).toEqual(['done'])
    const [row] = (await uploadRows(server.dbPath)).filter(r => r.message === 'Tarde demais')
    expect(row).toMatchObject({ status: 'approved', file_name: 'IMG_TARDE.jpg' })
    // The server refuses it too: the token this phone kept no longer opens anything.
    const token = await page.evaluate(async () => {
      const open = indexedDB.open('event-media-upload-queue')
      const db = await new Promise<IDBDatabase>(resolve => open.onsuccess = () => resolve(open.result))
      const all = db.transaction('records').objectStore('records').getAll()
      return new Promise<string>(resolve => all.onsuccess = () => resolve(all.result[0].undo.token))
    })
    const late = await api(server.url, `/api/uploads/${row!.id}`, { method: 'DELETE', headers: { 'x-undo-token': token } })
    expect([late.status, late.body.data.code]).toEqual([409, 'UNDO_EXPIRED'])
  })
})
