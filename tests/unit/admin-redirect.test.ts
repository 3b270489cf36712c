import { describe, expect, it } from 'vitest'
import { safeAdminRedirect } from '../../app-utils/admin-redirect'

describe('safeAdminRedirect', () => {
  it('returns to the admin page that sent the browser to login, query included', () => {
    expect(safeAdminRedirect('/admin')).toBe('/admin')
    expect(safeAdminRedirect('/admin?aba=evento')).toBe('/admin?aba=evento')
    expect(safeAdminRedirect('/admin?status=approved&q=maria')).toBe('/admin?status=approved&q=maria')
  })

  it('falls back to the dashboard for anything that is not an admin page on this site', () => {
    for (const value of [
      undefined, null, 42, ['/admin'], '', 'admin', '/', '/galeria', '/administrator', '//evil.example/admin',
      'https://evil.example/admin', '/admin/../galeria', '/admin\\@evil.example', '/admin/login', '/admin/login?redirect=/admin',
      ' /admin',
    ]) {
      expect(safeAdminRedirect(value), String(value)).toBe('/admin')
    }
  })
})
