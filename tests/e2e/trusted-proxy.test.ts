import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../support/http'
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server'

// The tests reach the server from 127.0.0.1: listed in TRUST_PROXY_FROM, they are the proxy;
// not listed, they are a client that reached the port directly.

const loginFrom = (server: TestServer, headers: Record<string, string>) =>
  api(server.url, '/api/admin/login', { method: 'POST', json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers })

const guess = (server: TestServer, forwardedFor: string, i: number) =>
  api(server.url, '/api/admin/login', { method: 'POST', json: { email: `guess${i}@example.com`, password: 'x' }, headers: { 'x-forwarded-for': forwardedFor } })

describe('TRUST_PROXY_FROM: forwarded headers only from the proxy\'s own addresses', () => {
  let direct: TestServer
  let proxied: TestServer
  beforeAll(async () => {
    direct = await startServer({ TRUST_PROXY: 'x-forwarded-for', TRUST_PROXY_FROM: '10.20.30.40, 192.0.2.0/24, 2001:db8::/32' })
    proxied = await startServer({ TRUST_PROXY: 'x-forwarded-for', TRUST_PROXY_FROM: '203.0.113.5,127.0.0.0/8' })
  })
  afterAll(async () => {
    await direct?.stop()
    await proxied?.stop()
  })

  it('from an address not listed: X-Forwarded-Proto does not make the session cookie Secure', async () => {
    const response = await loginFrom(direct, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' })
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie().join('\n')).not.toContain('Secure')
  })

  it('from an address not listed: a forged X-Forwarded-For does not reset the per-client limit', async () => {
    const statuses = []
    for (let i = 0; i < 11; i++) statuses.push((await guess(direct, `198.51.100.${i + 10}`, i)).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429])
  })

  it('from a listed address: X-Forwarded-Proto and the client address are believed', async () => {
    const response = await loginFrom(proxied, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' })
    expect(response.headers.getSetCookie().join('\n')).toContain('Secure')
    const statuses = []
    for (let i = 0; i < 11; i++) statuses.push((await guess(proxied, '198.51.100.7', i)).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429])
    // Another guest behind the same proxy has a budget of their own.
    expect((await guess(proxied, '198.51.100.8', 99)).status).toBe(401)
  })
})

describe('TRUST_PROXY_FROM is checked at start', () => {
  it('an entry that is not an IP address or a CIDR range stops the server before it listens, naming the variable', async () => {
    for (const value of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129']) {
      await expect(startServer({ TRUST_PROXY: 'x-forwarded-for', TRUST_PROXY_FROM: value })).rejects.toThrow(/TRUST_PROXY_FROM is invalid/)
    }
  })
})
