import { describe, expect, it } from 'vitest'
import { parseConfig } from '../../server/utils/config'

const valid = {
  ADMIN_PASSWORD: 'pw',
  SESSION_SECRET: 'x'.repeat(32),
  ALLOWED_ADMIN_EMAILS: ' A@example.com , b@example.com ',
  PUBLIC_BASE_URL: 'https://fotos.example.com',
}

describe('configuration', () => {
  it('parses the list of admins case-insensitively and applies defaults', () => {
    const result = parseConfig(valid)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.config.ALLOWED_ADMIN_EMAILS).toEqual(['a@example.com', 'b@example.com'])
    expect(result.config.DATABASE_URL).toBe('file:.data/event.db')
    expect(result.config.MEDIA_DIR).toBe('.data/media')
    expect(result.config.S3_FORCE_PATH_STYLE).toBe(false)
  })

  it('TRUST_PROXY_FROM takes IP addresses and CIDR ranges, and names a bad entry', () => {
    expect(parseConfig({ ...valid, TRUST_PROXY: 'x-forwarded-for', TRUST_PROXY_FROM: '10.0.0.1, 172.16.0.0/12, ::1' }).ok).toBe(true)
    expect(parseConfig({ ...valid, TRUST_PROXY_FROM: '10.0.0.1, proxy.local' })).toEqual({ ok: false, problems: ['TRUST_PROXY_FROM is invalid: comma-separated IP addresses or CIDR ranges'] })
  })

  it('an empty variable counts as missing', () => {
    expect(parseConfig({ ...valid, ADMIN_PASSWORD: '' })).toEqual({ ok: false, problems: ['ADMIN_PASSWORD is missing'] })
  })

  it('a serverless preset refuses local storage and a database file, naming what to set', () => {
    const result = parseConfig(valid, 'vercel')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.join('\n')).toMatch(/S3_BUCKET is missing: the vercel preset/)
    expect(result.problems.join('\n')).toMatch(/DATABASE_URL is invalid/)
    expect(parseConfig({ ...valid, S3_BUCKET: 'b', DATABASE_URL: 'libsql://db.turso.io' }, 'netlify').ok).toBe(true)
  })
})
