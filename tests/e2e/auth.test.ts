import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api, login, type JsonResponse } from '../support/http'
import { openDatabase } from '../support/seed'
import { ADMIN_EMAIL, ADMIN_PASSWORD, SESSION_SECRET, startServer, type TestServer } from '../support/server'

const key = new TextEncoder().encode(SESSION_SECRET)

function token(claims: Record<string, unknown>, opts: { secret?: Uint8Array, exp?: number | string, iss?: string, aud?: string } = {}) {
  return new SignJWT({ email: claims.sub, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(opts.iss ?? 'event-media')
    .setAudience(opts.aud ?? 'event-media-admin')
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '1h')
    .sign(opts.secret ?? key)
}

function b64(value: object) {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

describe('admin sessions', () => {
  const server = useTestServer()

  const me = (cookie?: string) => api(server.url, '/api/admin/me', { cookie })

  it('login with the right password sets a 7-day HttpOnly Lax cookie and answers the email', async () => {
    const response = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ email: ADMIN_EMAIL })
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toMatch(/^em_admin=[\w-]+\.[\w-]+\.[\w-]+;/)
    expect(cookie).toContain('Max-Age=604800')
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Secure')
    const session = await me(cookie.split(';')[0])
    expect(session.status).toBe(200)
    expect(session.body).toEqual({ email: ADMIN_EMAIL })
  })

  it('email matching ignores case and surrounding spaces in the allowed list', async () => {
    const response = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: 'SECOND@Example.com', password: ADMIN_PASSWORD } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ email: 'second@example.com' })
  })

  it('a wrong password and an unknown email get the same vague 401', async () => {
    const wrongPassword = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: 'nope' } })
    const unknownEmail = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: 'intruder@example.com', password: ADMIN_PASSWORD } })
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401)
      expect(response.body.data).toEqual({ code: 'INVALID_CREDENTIALS' })
      expect(response.headers.get('set-cookie')).toBeNull()
    }
    expect(wrongPassword.body.statusMessage).toBe(unknownEmail.body.statusMessage)
    expect(wrongPassword.body.message).toBe(unknownEmail.body.message)
  })

  it('login bodies are validated', async () => {
    expect((await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL } })).body.data.code).toBe('INVALID_REQUEST')
    expect((await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: 1 } })).status).toBe(400)
    expect((await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: 'x', admin: true } })).status).toBe(400)
  })

  it('401 UNAUTHENTICATED without a cookie, with a tampered one, alg none, another key, expired, wrong audience, or a removed email', async () => {
    const good = await token({ sub: ADMIN_EMAIL })
    const [header, payload, signature] = good.split('.')
    const tampered = `${header}.${b64({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'second@example.com' })}.${signature}`
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`
    const otherKey = await token({ sub: ADMIN_EMAIL }, { secret: new TextEncoder().encode('another-secret-that-is-long-enough-000000') })
    const expired = await token({ sub: ADMIN_EMAIL }, { exp: Math.floor(Date.now() / 1000) - 60 })
    const wrongAudience = await token({ sub: ADMIN_EMAIL }, { aud: 'somebody-else' })
    const removedEmail = await token({ sub: 'former@example.com' })

    expect((await me(`em_admin=${good}`)).status).toBe(200)
    for (const cookie of [undefined, 'em_admin=', `em_admin=${tampered}`, `em_admin=${none}`, `em_admin=${otherKey}`, `em_admin=${expired}`, `em_admin=${wrongAudience}`, `em_admin=${removedEmail}`, 'em_admin=garbage']) {
      const response = await me(cookie)
      expect(response.status, cookie).toBe(401)
      expect(response.body.data).toEqual({ code: 'UNAUTHENTICATED' })
    }
  })

  it('a token naming an allowed admin in other case or with spaces is that admin, spelled as the allowed list spells it', async () => {
    const response = await me(`em_admin=${await token({ sub: `  ${ADMIN_EMAIL.toUpperCase()} ` })}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ email: ADMIN_EMAIL })
  })

  it('logout clears the cookie and revokes the token: a copy of the old cookie answers 401', async () => {
    const cookie = await login(server.url)
    expect((await me(cookie)).status).toBe(200)
    const out = await api(server.url, '/api/admin/logout', { method: 'POST', cookie })
    expect(out.status).toBe(200)
    expect(out.body).toEqual({ ok: true })
    expect(out.headers.get('set-cookie')).toMatch(/^em_admin=;.*Max-Age=0/)
    expect((await me(cookie)).status).toBe(401)
    expect((await api(server.url, '/api/admin/event', { cookie })).status).toBe(401)
  })

  it('a session verified before is still checked for revocation on every request: revoked by another instance, it answers 401 at once', async () => {
    const cookie = await login(server.url)
    expect((await me(cookie)).status).toBe(200)
    expect((await api(server.url, '/api/admin/uploads', { cookie })).status).toBe(200)
    // Another instance's logout is a row in the shared database, nothing this process hears of.
    const claims = JSON.parse(Buffer.from(cookie.split('=')[1]!.split('.')[1]!, 'base64url').toString())
    const db = openDatabase(server.dbPath)
    try {
      await db.execute({ sql: 'insert into revoked_tokens (jti, expires_at) values (?, ?)', args: [claims.jti, claims.exp * 1000] })
    }
    finally {
      db.close()
    }
    const after = await me(cookie)
    expect(after.status).toBe(401)
    expect(after.body.data).toEqual({ code: 'UNAUTHENTICATED' })
    expect((await api(server.url, '/api/admin/uploads', { cookie })).status).toBe(401)
  })

  it('a session verified before ends with its token: once expired it answers 401', async () => {
    const expires = Math.floor(Date.now() / 1000) + 2
    const cookie = `em_admin=${await token({ sub: ADMIN_EMAIL }, { exp: expires })}`
    expect((await me(cookie)).status).toBe(200)
    await new Promise(resolve => setTimeout(resolve, expires * 1000 - Date.now() + 50))
    const after = await me(cookie)
    expect(after.status).toBe(401)
    expect(after.body.data).toEqual({ code: 'UNAUTHENTICATED' })
  })

  it('a state-changing admin call from another site is 403 FORBIDDEN_ORIGIN, same origin passes', async () => {
    const cookie = await login(server.url)
    const patch = (headers: Record<string, string>) => api(server.url, '/api/admin/event', { method: 'PATCH', json: { coupleNames: 'Ana & Bruno' }, cookie, headers })
    const foreign = await patch({ origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.body.data).toEqual({ code: 'FORBIDDEN_ORIGIN' })
    expect((await patch({ 'sec-fetch-site': 'cross-site' })).body.data.code).toBe('FORBIDDEN_ORIGIN')
    expect((await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: { origin: 'https://evil.example' } })).status).toBe(403)
    expect((await patch({ 'origin': server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    // Reads are not state-changing.
    expect((await api(server.url, '/api/admin/event', { cookie, headers: { origin: 'https://evil.example' } })).status).toBe(200)
  })

  it('throttles failed logins per email with 429 RATE_LIMITED and retry-after', async () => {
    const target = 'second@example.com'
    const statuses: number[] = []
    let last
    for (let i = 0; i < 7; i++) {
      last = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: target, password: `wrong-${i}` } })
      statuses.push(last.status)
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5)).toEqual([429, 429])
    expect(last!.body.data.code).toBe('RATE_LIMITED')
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    // Even the right password waits: the guesser cannot tell.
    expect((await api(server.url, '/api/admin/login', { method: 'POST', json: { email: target, password: ADMIN_PASSWORD } })).status).toBe(429)
  })
})

describe('admin sessions behind a trusted proxy', () => {
  it('marks the cookie Secure when the proxy says the request came over https, and throttles per client', async () => {
    const server = await startServer({ TRUST_PROXY: 'x-forwarded-for' })
    try {
      const response = await api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' } })
      expect(response.headers.get('set-cookie')).toContain('Secure')

      const attempt = (ip: string, i: number) => api(server.url, '/api/admin/login', { method: 'POST', json: { email: `guess${i}@example.com`, password: 'x' }, headers: { 'x-forwarded-for': ip } })
      const statuses = []
      for (let i = 0; i < 11; i++) statuses.push((await attempt('198.51.100.7', i)).status)
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
      expect(statuses[10]).toBe(429)
      // Another client behind the same proxy is not affected.
      expect((await attempt('198.51.100.8', 99)).status).toBe(401)
    }
    finally {
      await server.stop()
    }
  })
})

/** The `name=value` pair of the cookie `name` that a response sets, or undefined. */
function setCookie(response: JsonResponse, name: string): string | undefined {
  return response.headers.getSetCookie().find(cookie => cookie.startsWith(`${name}=`))
}

const pair = (cookie: string) => cookie.split(';')[0]!

describe('admins cannot be locked out: device cookies', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'x-forwarded-for' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const attempt = (email: string, password: string, address: string, cookie?: string) =>
    api(server.url, '/api/admin/login', { method: 'POST', json: { email, password }, headers: { 'x-forwarded-for': address }, cookie })

  /** Wrong passwords for `email`, each from the next address, until the answer is 429; the 401s it took. */
  async function flood(email: string, addresses: (i: number) => string): Promise<number> {
    for (let i = 0; i < 50; i++) {
      const response = await attempt(email, `guess-${i}`, addresses(i))
      if (response.status === 429) return i
      expect(response.status).toBe(401)
    }
    throw new Error('never limited')
  }

  it('a login sets a signed, HttpOnly, Strict device cookie for 180 days, sent only to the login, that logout leaves', async () => {
    const response = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.10')
    expect(response.status).toBe(200)
    const device = setCookie(response, 'em_device')!
    expect(device).toMatch(/^em_device=[\w-]+\.[\w-]+\.[\w-]+;/)
    expect(device).toContain('Max-Age=15552000')
    expect(device).toContain('Path=/api/admin/login')
    expect(device).toContain('HttpOnly')
    expect(device).toContain('SameSite=Strict')
    expect(device).not.toContain('Secure')
    // It is not a session.
    expect((await api(server.url, '/api/admin/me', { cookie: `em_admin=${pair(device).slice('em_device='.length)}` })).status).toBe(401)
    const out = await api(server.url, '/api/admin/logout', { method: 'POST', cookie: pair(setCookie(response, 'em_admin')!) })
    expect(out.status).toBe(200)
    expect(setCookie(out, 'em_device')).toBeUndefined()
  })

  it('a device cookie helps only the email it names, and only as signed', async () => {
    const admin = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.30')
    const adminDevice = pair(setCookie(admin, 'em_device')!)
    const session = pair(setCookie(admin, 'em_admin')!)
    const target = 'second@example.com'
    expect(await flood(target, i => `198.51.100.${i + 1}`)).toBe(5)
    const [header, payload, signature] = adminDevice.slice('em_device='.length).split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const retargeted = `em_device=${header}.${Buffer.from(JSON.stringify({ ...claims, sub: target })).toString('base64url')}.${signature}`
    const otherKey = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('event-media').setAudience('event-media-device')
      .setSubject(target).setJti(crypto.randomUUID()).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-that-is-long-enough-000000'))
    const sessionAsDevice = `em_device=${session.slice('em_admin='.length)}`
    for (const cookie of [adminDevice, retargeted, `em_device=${otherKey}`, sessionAsDevice, 'em_device=garbage']) {
      const response = await attempt(target, ADMIN_PASSWORD, '203.0.113.31', cookie)
      expect(response.status, cookie).toBe(429)
      expect(response.body.data.code).toBe('RATE_LIMITED')
    }
  })

  it('after a flood of wrong passwords for the admin\'s email from everywhere, the admin\'s own device still logs in at once', async () => {
    const adminAddress = '203.0.113.20'
    // The admin logged in on this tablet before the attack.
    const earlier = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, adminAddress)
    expect(earlier.status).toBe(200)
    const device = pair(setCookie(earlier, 'em_device')!)

    // The attacker floods the email from many addresses, then the admin's own (the venue's Wi-Fi).
    expect(await flood(ADMIN_EMAIL, i => `198.51.100.${i + 1}`)).toBe(5)
    for (let i = 0; i < 10; i++) expect((await attempt(`someone-${i}@example.com`, 'x', adminAddress)).status).toBe(401)
    expect((await attempt('someone@example.com', 'x', adminAddress)).status).toBe(429)

    // Unknown clients stay limited, even with the right password: guessing stays slow.
    const stranger = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, '192.0.2.99')
    expect(stranger.status).toBe(429)
    expect(stranger.body.data.code).toBe('RATE_LIMITED')
    expect((await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, adminAddress)).status).toBe(429)

    // The admin's device: at once, from the flooded address.
    const back = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, adminAddress, device)
    expect(back.status).toBe(200)
    expect(back.body).toEqual({ email: ADMIN_EMAIL })
    const session = pair(setCookie(back, 'em_admin')!)
    expect((await api(server.url, '/api/admin/me', { cookie: session })).body).toEqual({ email: ADMIN_EMAIL })
    // And the device cookie is renewed.
    expect(setCookie(back, 'em_device')).toMatch(/^em_device=/)
  })

  it('a known device has its own failure limit: five wrong passwords, then 429 whatever the password, and no one else pays for them', async () => {
    const third = 'third@example.com'
    const restarted = await startServer({ TRUST_PROXY: 'x-forwarded-for', ALLOWED_ADMIN_EMAILS: `${ADMIN_EMAIL}, ${third}` })
    try {
      const send = (password: string, address: string, cookie?: string) =>
        api(restarted.url, '/api/admin/login', { method: 'POST', json: { email: third, password }, headers: { 'x-forwarded-for': address }, cookie })
      const device = pair(setCookie(await send(ADMIN_PASSWORD, '203.0.113.40'), 'em_device')!)
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await send(`stolen-${i}`, `198.51.100.${100 + i}`, device)).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
      const locked = await send(ADMIN_PASSWORD, '203.0.113.40', device)
      expect(locked.status).toBe(429)
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      // The email's own limit was not touched by the device's failures.
      expect((await send(ADMIN_PASSWORD, '203.0.113.41')).status).toBe(200)
    }
    finally {
      await restarted.stop()
    }
  })
})
