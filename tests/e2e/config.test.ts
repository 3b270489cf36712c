import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { baseEnv, runServerUntilExit } from '../support/server'
import { freePort } from '../support/ports'

const MANDATORY = ['ADMIN_PASSWORD', 'SESSION_SECRET', 'ALLOWED_ADMIN_EMAILS', 'PUBLIC_BASE_URL'] as const

describe('start-up configuration', () => {
  for (const name of MANDATORY) {
    it(`refuses to start without ${name} and names it`, async () => {
      const env = baseEnv(mkdtempSync(join(tmpdir(), 'cfg-')), await freePort())
      delete (env as Record<string, string>)[name]
      const { code, output } = await runServerUntilExit(env)
      expect(code).not.toBe(0)
      expect(output).toContain(`${name} is missing`)
      expect(output).not.toContain('Listening')
    })
  }

  it('refuses a short SESSION_SECRET and a non-http PUBLIC_BASE_URL, printing names but never values', async () => {
    const env: Record<string, string> = { ...baseEnv(mkdtempSync(join(tmpdir(), 'cfg-')), await freePort()), SESSION_SECRET: 'short-secret-value', PUBLIC_BASE_URL: 'ftp://x' }
    const { code, output } = await runServerUntilExit(env)
    expect(code).toBe(1)
    expect(output).toContain('SESSION_SECRET is invalid')
    expect(output).toContain('PUBLIC_BASE_URL is invalid')
    expect(output).not.toContain('short-secret-value')
    expect(output).not.toContain(env.ADMIN_PASSWORD!)
  })
})
