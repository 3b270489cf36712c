// How the first run names the admin's login, written once for the two moments it is printed: when
// `.env` is written, and again after the build (hundreds of lines later), just before the server listens.
import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

export const envPath = new URL('../.env', import.meta.url)

/** The lines that tell a newcomer where and how to log in. */
export function loginLines({ address, email, password }) {
  return [
    '[setup] Admin login:',
    `  address   ${address}`,
    `  email     ${email}`,
    `  password  ${password}`,
  ]
}

/**
 * The login the server about to start will accept: `node --env-file` gives variables already in the
 * environment precedence over the file's, so the same order here. Undefined without a password.
 */
export function readLogin(env = process.env) {
  const file = existsSync(envPath) ? parseEnv(readFileSync(envPath, 'utf8')) : {}
  const value = name => env[name] ?? file[name]
  const password = value('ADMIN_PASSWORD')
  const email = value('ALLOWED_ADMIN_EMAILS')?.split(',').map(e => e.trim()).find(Boolean)
  if (!password || !email) return undefined
  const base = value('PUBLIC_BASE_URL') ?? `http://localhost:${value('PORT') ?? '3000'}`
  return { address: new URL('/admin/login', base).href, email, password }
}
