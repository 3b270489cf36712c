import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { loginThroughForm } from '../support/admin-browser'
import { api } from '../support/http'
import { useTestServer } from '../support/suite/test-server'
import { useBrowser } from './support/fixture'

/**
 * A moment's window edited on the Event tab, in the device's time zone, against the real server:
 * stored as the instants typed; an end before the start is refused (400) and said in the admin's
 * language, the fields going back to what is stored.
 */
describe('admin: a moment\'s window on the Event tab (browser)', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server })
  let page: Page

  const stored = async () => (await api(server.url, '/api/admin/moments', { cookie: server.cookie })).body.items as { id: string, name: string, startsAt: string | null, endsAt: string | null }[]

  beforeAll(async () => {
    expect((await api(server.url, '/api/admin/moments', { method: 'POST', json: { name: 'Cerimônia' }, cookie: server.cookie })).status).toBe(201)
    page = (await pages.watched()).page
    await page.goto('/admin/login?redirect=/admin?aba=evento')
    await loginThroughForm(page)
    await page.locator('[data-testid=moments-row]').waitFor()
  })

  /** The instant a datetime-local value means on this page's device. */
  const instantOf = (local: string) => page.evaluate(typed => new Date(typed).toISOString(), local)

  it('stores the window typed, and refuses an end before the start with the reason in the admin\'s language', async () => {
    const row = page.locator('[data-testid=moments-row]').first()
    await row.locator('[data-testid=moment-starts]').fill('2026-11-21T19:00')
    await expect.poll(async () => (await stored())[0]!.startsAt, { timeout: 10_000 }).toBe(await instantOf('2026-11-21T19:00'))
    await row.locator('[data-testid=moment-ends]').fill('2026-11-21T21:30')
    await expect.poll(async () => (await stored())[0]!.endsAt, { timeout: 10_000 }).toBe(await instantOf('2026-11-21T21:30'))
    expect((await stored())[0]!.startsAt).toBe(await instantOf('2026-11-21T19:00'))

    // An end before the start: the server's 400, said as the window's problem; nothing changes.
    const refused = page.waitForResponse(response => response.request().method() === 'PATCH' && new URL(response.url()).pathname.startsWith('/api/admin/moments/'))
    await row.locator('[data-testid=moment-ends]').fill('2026-11-21T18:00')
    const answer = await refused
    expect(answer.status()).toBe(400)
    expect((await answer.json()).data.code).toBe('INVALID_REQUEST')
    await page.getByText('O fim do momento precisa ser depois do começo.').waitFor()
    await expect.poll(() => row.locator('[data-testid=moment-ends]').inputValue(), { timeout: 10_000 }).toBe('2026-11-21T21:30')
    expect((await stored())[0]!.endsAt).toBe(await instantOf('2026-11-21T21:30'))

    // Emptied, the start is open again.
    await row.locator('[data-testid=moment-starts]').fill('')
    await expect.poll(async () => (await stored())[0]!.startsAt, { timeout: 10_000 }).toBeNull()
    expect((await stored())[0]!.endsAt).toBe(await instantOf('2026-11-21T21:30'))
  })
})
