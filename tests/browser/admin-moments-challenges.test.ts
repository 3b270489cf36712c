import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { until } from './support/browser'
import { useBrowser } from './support/fixture'

/** The admin's Event tab edits the moments of the day and the challenges: add, rename, reorder, switch off. */
describe('admin: moments and challenges on the Event tab (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let page: Page

  const stored = async (kind: 'moments' | 'challenges') => (await api(server.url, `/api/admin/${kind}`, { cookie: server.cookie })).body.items as any[]
  const rowLabels = (kind: string) => page.locator(`[data-testid=${kind}-row] [data-testid=ordered-label]`).evaluateAll(els => els.map(el => (el as HTMLInputElement).value))

  beforeAll(async () => {
    page = (await pages.watched()).page
    await page.goto('/admin/login?redirect=/admin?aba=evento')
    await loginThroughForm(page)
    await page.locator('[data-testid=moments-editor]').waitFor()
  })

  async function add(kind: 'moments' | 'challenges', text: string) {
    const editor = page.locator(`[data-testid=${kind}-editor]`)
    const before = await editor.locator(`[data-testid=${kind}-row]`).count()
    await editor.locator('[data-testid=ordered-new]').fill(text)
    await editor.locator('[data-testid=ordered-add]').click()
    await until(async () => (await editor.locator(`[data-testid=${kind}-row]`).count()) === before + 1, 10_000, `${text} added`)
  }

  it('adds moments, reorders them, renames one, and refuses a taken name with its reason', async () => {
    for (const name of ['Cerimônia', 'Festa', 'Brinde']) await add('moments', name)
    expect(await rowLabels('moments')).toEqual(['Cerimônia', 'Festa', 'Brinde'])
    // Brinde up one place: before the party.
    await page.locator('[data-testid=moments-row]').nth(2).locator('[data-testid=ordered-up]').click()
    await expect.poll(() => rowLabels('moments')).toEqual(['Cerimônia', 'Brinde', 'Festa'])
    expect((await stored('moments')).map(m => [m.name, m.position])).toEqual([['Cerimônia', 0], ['Brinde', 1], ['Festa', 2]])

    const festa = page.locator('[data-testid=moments-row]').nth(2).locator('[data-testid=ordered-label]')
    await festa.fill('Festa e dança')
    await festa.press('Enter')
    await expect.poll(async () => (await stored('moments')).map(m => m.name)).toEqual(['Cerimônia', 'Brinde', 'Festa e dança'])

    // A taken name: the toast says why, and the field shows what is stored again.
    const brinde = page.locator('[data-testid=moments-row]').nth(1).locator('[data-testid=ordered-label]')
    await brinde.fill('Cerimônia')
    await brinde.press('Enter')
    await page.getByText('Já existe um momento com esse nome.').waitFor()
    await expect.poll(() => rowLabels('moments')).toEqual(['Cerimônia', 'Brinde', 'Festa e dança'])

    // The screen's card offers the moments (the ones just added, without a reload) for its address.
    const brindeId = (await stored('moments'))[1].id
    const choice = page.locator('[data-testid=slideshow-moment]')
    await expect.poll(() => choice.locator('option').allTextContents()).toEqual(['Todos os momentos', 'Cerimônia', 'Brinde', 'Festa e dança'])
    await choice.selectOption(brindeId)
    await expect.poll(() => page.locator('[data-testid=slideshow-address]').textContent()).toMatch(new RegExp(`/galeria\\?slideshow=1&chave=[\\w-]+&momento=${brindeId}$`))
  })

  it('adds challenges, moves one down, switches one off and deletes one; guests see only the active ones', async () => {
    for (const text of ['Uma selfie com a noiva', 'O passo de dança mais ousado', 'O brinde mais emocionado']) await add('challenges', text)
    await page.locator('[data-testid=challenges-row]').nth(0).locator('[data-testid=ordered-down]').click()
    await expect.poll(() => rowLabels('challenges')).toEqual(['O passo de dança mais ousado', 'Uma selfie com a noiva', 'O brinde mais emocionado'])

    await page.locator('[data-testid=challenges-row]').nth(2).locator('[data-testid=ordered-active]').uncheck()
    await expect.poll(async () => (await stored('challenges')).map(c => c.active)).toEqual([true, true, false])
    expect((await api(server.url, '/api/challenges')).body.items.map((c: any) => c.text)).toEqual(['O passo de dança mais ousado', 'Uma selfie com a noiva'])

    await page.locator('[data-testid=challenges-row]').nth(0).locator('[data-testid=ordered-remove]').click()
    await expect.poll(() => rowLabels('challenges')).toEqual(['Uma selfie com a noiva', 'O brinde mais emocionado'])
    expect((await stored('challenges')).map(c => c.text)).toEqual(['Uma selfie com a noiva', 'O brinde mais emocionado'])
  })
})
