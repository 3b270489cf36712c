import { rmSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { photo, tempDir } from '../support/media'
import { uploadRows } from './support/db'
import { launchBrowser, PHONE, phoneContext, screenshot, until } from './support/browser'

/** /enviar after sending: each file listed once, and the couple's per-guest limit said and kept. */
describe('/enviar: what this phone sent, once, and the per-guest limit (phone, real server)', () => {
  const server = useTestServer({ admin: true })
  let browser: Browser
  let context: BrowserContext | undefined
  const dir = tempDir()

  const setEvent = async (patch: Record<string, unknown>) => {
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json: patch, cookie: server.cookie })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
  }

  async function openPage(locale = 'pt-BR'): Promise<Page> {
    // support/browser.ts's phone, in the language asked.
    context = locale === 'pt-BR' ? await phoneContext(browser, server.url) : await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale })
    const page = await context.newPage()
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    return page
  }

  beforeAll(async () => {
    await setEvent({ coupleNames: 'Ana & Bruno', moderation: 'post' })
    browser = await launchBrowser()
  })

  afterEach(async () => {
    await context?.close()
    context = undefined
  })

  afterAll(async () => {
    await browser?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a sent file is one row with one "Remover" that holds the server\'s entry for it; uploads no longer on the page are rows of their own', async () => {
    const page = await openPage()
    const known = new Set((await uploadRows(server.dbPath)).map(row => row.id))
    const files = await Promise.all([1, 2, 3, 4].map(n => photo(dir, `UMA_${n}.jpg`, `Uma ${n}`, 40 + 20 * n)))
    await page.setInputFiles('input[type=file]', files)
    await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })

    const rows = page.locator('[data-testid=upload-item]')
    const mine = page.locator('[data-testid=my-upload]')
    const removes = page.locator('[data-testid=upload-remove]')
    await until(async () => (await rows.locator('[data-testid=my-upload]').count()) === 4, 30_000, 'every row listed by the server')
    expect(await rows.evaluateAll(els => els.map(el => el.getAttribute('data-name')))).toEqual(['UMA_1.jpg', 'UMA_2.jpg', 'UMA_3.jpg', 'UMA_4.jpg'])
    expect(await mine.count()).toBe(4)
    expect(await removes.count()).toBe(4)
    expect(await rows.evaluateAll(els => els.map(el => el.querySelectorAll('[data-testid=upload-remove]').length))).toEqual([1, 1, 1, 1])
    const sent = (await uploadRows(server.dbPath)).filter(row => !known.has(row.id))
    expect(sent).toHaveLength(4)
    expect((await mine.evaluateAll(els => els.map(el => el.getAttribute('data-id')))).sort()).toEqual(sent.map(row => row.id).sort())
    expect(await mine.evaluateAll(els => els.map(el => [el.getAttribute('data-status'), el.textContent!.trim()]))).toEqual(Array(4).fill(['approved', 'Na galeria']))
    await screenshot(page, 'enviar-sent-once', true)

    // "Enviar mais" clears the page's rows: what the server lists stays, each a row of its own, without "Remover" (its token went with the row).
    await page.getByRole('button', { name: 'Enviar mais' }).click()
    await until(async () => (await rows.count()) === 0, 10_000, 'the rows cleared')
    expect(await mine.count()).toBe(4)
    expect(await removes.count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Enviadas deste celular' }).count()).toBe(1)

    // One more file: its row, then the four earlier ones; one "Remover" in all.
    await page.setInputFiles('input[type=file]', [await photo(dir, 'UMA_5.jpg', 'Uma 5', 150)])
    await until(async () => (await rows.locator('[data-testid=my-upload]').count()) === 1, 30_000, 'the fifth listed in its row')
    expect(await mine.count()).toBe(5)
    expect(await rows.count()).toBe(1)
    expect(await removes.count()).toBe(1)

    // Removed: gone from the one list, and not back as a row of its own.
    page.once('dialog', dialog => void dialog.accept())
    await removes.click()
    await page.locator('[data-testid=upload-removed]').waitFor({ timeout: 15_000 })
    await until(async () => (await rows.count()) === 0 && (await mine.count()) === 4, 15_000, 'the fifth gone from the list')
    await page.evaluate(() => new Promise(resolve => setTimeout(resolve, 500)))
    expect(await mine.count()).toBe(4)
  })

  it('under a limit of 2 the intro names it in each language; once reached the picker is disabled and says why, and nothing offers more', async () => {
    await setEvent({ maxUploadsPerGuest: 2 })
    try {
      const intros: Record<string, string> = {
        'pt-BR': 'Cada convidado pode enviar até 2 fotos. Os arquivos sobem um por um, mesmo se a internet cair.',
        'en': 'Each guest can send up to 2 photos. Files go up one by one, even if the connection drops.',
        'es': 'Cada invitado puede enviar hasta 2 fotos. Los archivos se suben uno por uno, aunque se caiga la conexión.',
      }
      for (const [locale, intro] of Object.entries(intros)) {
        const page = await openPage(locale)
        expect((await page.locator('[data-testid=upload-intro]').textContent())!.trim(), locale).toBe(intro)
        await context!.close()
        context = undefined
      }

      const page = await openPage()
      const picker = page.locator('input[type=file]')
      const pickerLabel = () => picker.evaluate(input => (input as HTMLInputElement).labels![0]!.textContent!.trim())
      expect(await picker.isDisabled()).toBe(false)
      await page.setInputFiles('input[type=file]', await Promise.all([1, 2].map(n => photo(dir, `LIMITE_${n}.jpg`, `Limite ${n}`, 60 * n))))
      await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })
      const limit = page.locator('[data-testid=guest-limit]')
      await until(async () => (await limit.textContent())?.trim() === 'Você já enviou suas 2 fotos. Obrigado!', 15_000, 'the limit reached')
      expect(await picker.isDisabled()).toBe(true)
      expect(await pickerLabel()).toBe('Limite de 2 fotos atingido')
      expect(await page.getByRole('button', { name: 'Enviar mais' }).count()).toBe(0)
      expect(await page.getByText('Escolher mais').count()).toBe(0)
      await screenshot(page, 'enviar-limit-reached', true)

      // The server's count says so on the next visit too.
      await page.reload()
      await page.locator('main[data-ready]').waitFor()
      await until(async () => picker.isDisabled(), 15_000, 'the picker disabled after a reload')
      expect(await pickerLabel()).toBe('Limite de 2 fotos atingido')
      expect(await page.getByRole('button', { name: 'Enviar mais' }).count()).toBe(0)
    }
    finally {
      await setEvent({ maxUploadsPerGuest: null })
    }
  })
})
