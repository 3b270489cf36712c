import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { axeViolations, expectAccessible } from './support/axe'
import { useBrowser } from './support/fixture'

// The check the other browser tests run on every page: proven here able to fail, on markup made to fail it.
describe('the accessibility check (axe-core in Chromium)', () => {
  const pages = useBrowser()
  let page: Page

  beforeAll(async () => {
    page = await pages.page()
  })

  it('fails on serious and critical violations, naming the rule, the element and the help', async () => {
    await page.setContent(`<!doctype html><html lang="pt-BR"><title>t</title><main>
      <h1>Título</h1>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="no-alt">
      <button id="mismatch" aria-label="Abrir">Vídeo sem prévia</button>
      <p style="color:#bbb;background:#fff" id="faint">Texto claro demais</p>
    </main></html>`)
    const ids = (await axeViolations(page)).map(finding => finding.id).sort()
    expect(ids).toEqual(['color-contrast', 'image-alt', 'label-content-name-mismatch'])
    const error = await expectAccessible(page, 'a page made to fail').catch((failure: Error) => failure)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/image-alt \(critical\): .+ https:\/\/dequeuniversity\.com\/rules\/axe\//)
    expect((error as Error).message).toContain('at #no-alt')
  })

  it('passes a page without them, and leaves moderate findings alone', async () => {
    // No h1 is "moderate" for axe: reported by axe, not failed here.
    await page.setContent(`<!doctype html><html lang="pt-BR"><title>t</title><main><p>Olá</p></main></html>`)
    await expectAccessible(page, 'a plain page')
  })
})
