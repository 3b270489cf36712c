import { rmSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { photo, tempDir } from '../support/media'
import { until } from './support/browser'
import { expectAccessible } from './support/axe'
import { useBrowser } from './support/fixture'

/** What each language writes on /enviar's title and /galeria's heading. */
const WORDS = {
  'pt-BR': { enviar: 'Enviar fotos e vídeos', galeria: 'Galeria' },
  'en': { enviar: 'Share photos and videos', galeria: 'Gallery' },
  'es': { enviar: 'Enviar fotos y videos', galeria: 'Galería' },
} as const
type Language = keyof typeof WORDS

describe('every guest in their own language (phone, real server)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let dir: string
  let context: BrowserContext | undefined

  /** A phone whose browser asks for `language` (Chromium's Accept-Language and navigator.languages). */
  const phone = async (language: string) => {
    context = await pages.context('phone', { locale: language })
    return context.newPage()
  }

  beforeAll(async () => {
    dir = tempDir()
    const response = await api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno', moderation: 'post' }, cookie: server.cookie })
    expect(response.status).toBe(200)
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
  })

  for (const language of Object.keys(WORDS) as Language[]) {
    it(`${language}: sends a photo through /enviar, sees it in /galeria, with no serious axe finding`, async () => {
      const page = await phone(language)
      const errors: string[] = []
      page.on('console', message => message.type() === 'error' && errors.push(message.text()))
      page.on('pageerror', error => errors.push(error.message))

      await page.goto('/enviar')
      await page.locator('main[data-ready]').waitFor()
      expect(await page.getAttribute('html', 'lang')).toBe(language)
      expect(await page.locator('h1').first().innerText()).toBe(WORDS[language].enviar)
      await expectAccessible(page, `/enviar in ${language}`)

      const file = await photo(dir, `IMG_${language}.jpg`, `${language}-guest`, 240)
      // Files go as soon as they are picked: no send button to press.
      await page.setInputFiles('input[type=file]', [file])
      await page.locator('[data-testid=upload-success]').waitFor({ timeout: 60_000 })

      await page.goto('/galeria')
      expect(await page.getAttribute('html', 'lang')).toBe(language)
      await expect(page.locator('h1').first().innerText()).resolves.toContain(WORDS[language].galeria)
      await until(async () => (await page.locator('[data-testid=gallery-item]').count()) > 0, 30_000, 'the photo in the gallery')
      await expectAccessible(page, `/galeria in ${language}`)
      // A server render and a hydration in two languages would say so here.
      expect(errors.filter(text => /hydration|mismatch/i.test(text))).toEqual([])
    }, 120_000)
  }

  it('the switcher changes the language at once, and a reload keeps it', async () => {
    const page = await phone('pt-BR')
    await page.goto('/enviar')
    await page.locator('main[data-ready]').waitFor()
    expect(await page.locator('h1').first().innerText()).toBe(WORDS['pt-BR'].enviar)

    await page.selectOption('[data-testid=language]', 'es')
    await until(async () => (await page.locator('h1').first().innerText()) === WORDS.es.enviar, 10_000, 'the Spanish title')
    // <html lang> is written by the head manager after the render, not in the same tick.
    await until(async () => (await page.getAttribute('html', 'lang')) === 'es', 5_000, '<html lang="es">')

    await page.reload()
    await page.locator('main[data-ready]').waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('es')
    expect(await page.locator('h1').first().innerText()).toBe(WORDS.es.enviar)
    expect(await page.inputValue('[data-testid=language]')).toBe('es')
  })
})
