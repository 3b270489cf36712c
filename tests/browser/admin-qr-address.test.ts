import { describe, expect, it } from 'vitest'
import { loginThroughForm } from '../support/admin-browser'
import { useTestServer } from '../support/suite/test-server'
import { expectAccessible } from './support/axe'
import { screenshot } from './support/browser'
import { useBrowser } from './support/fixture'

/**
 * The admin's Event tab warns when the QR code would encode an address guests' phones cannot
 * open: the code encodes the origin the admin browses on (server/utils/qr/target.ts). The same
 * built server is reached under several names: Chromium's resolver maps a public-looking name and
 * a `.local` one to 127.0.0.1, so the page runs under each for real (nothing in the page is faked).
 */
describe('the Event tab says which address the QR code encodes, and warns when phones cannot reach it', () => {
  const server = useTestServer({ admin: true })
  const pages = useBrowser({ server, args: ['--host-resolver-rules=MAP fotos.anaebruno.example 127.0.0.1, MAP festa.local 127.0.0.1'] })
  const port = () => new URL(server.url).port

  async function eventTab(host: string) {
    const context = await pages.context('desktop', { baseURL: `http://${host}:${port()}` })
    const page = await context.newPage()
    await page.goto('/admin/login?redirect=/admin?aba=evento')
    await loginThroughForm(page)
    await page.locator('[data-testid=share-links]').waitFor({ timeout: 20_000 })
    // The card preview is drawn once the page knows its address.
    await page.waitForFunction(() => document.querySelector('.card-address')?.textContent?.trim())
    return { context, page }
  }

  it('warns on a loopback address (127.0.0.1 and localhost), naming the address the code encodes', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const { context, page } = await eventTab(host)
      try {
        const warning = page.locator('[data-testid=qr-address-warning]')
        await warning.waitFor()
        expect(await warning.getAttribute('data-kind')).toBe('loopback')
        expect(await warning.textContent()).toContain(`http://${host}:${port()}/enviar`)
        expect(await warning.textContent()).toContain('só funciona neste computador')
        if (host === 'localhost') {
          await screenshot(page, 'admin-qr-address-loopback')
          await expectAccessible(page, 'the Event tab with the QR address warning')
        }
      }
      finally {
        await context.close()
      }
    }
  }, 90_000)

  it('warns that a local network name reaches only phones on the same Wi-Fi', async () => {
    const { context, page } = await eventTab('festa.local')
    try {
      const warning = page.locator('[data-testid=qr-address-warning]')
      await warning.waitFor()
      expect(await warning.getAttribute('data-kind')).toBe('private')
      expect(await warning.textContent()).toContain(`http://festa.local:${port()}/enviar`)
      expect(await warning.textContent()).toContain('mesma rede Wi-Fi')
    }
    finally {
      await context.close()
    }
  }, 60_000)

  it('says nothing on a public address', async () => {
    const { context, page } = await eventTab('fotos.anaebruno.example')
    try {
      expect(await page.locator('.card-address').textContent()).toBe(`fotos.anaebruno.example:${port()}/enviar`)
      expect(await page.locator('[data-testid=qr-address-warning]').count()).toBe(0)
    }
    finally {
      await context.close()
    }
  }, 60_000)
})
