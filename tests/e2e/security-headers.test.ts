import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { getInsecure, selfSignedCertificate } from '../support/https'
import { startServer } from '../support/server'

describe('security headers', () => {
  const server = useTestServer()

  it('pages carry a nonce policy that covers every script Nuxt wrote, and no unsafe-inline scripts', async () => {
    const response = await fetch(`${server.url}/`)
    const csp = response.headers.get('content-security-policy')!
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/)
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain(`frame-ancestors 'none'`)
    expect(csp).toContain(`object-src 'none'`)
    const html = await response.text()
    const scripts = html.match(/<script\b[^>]*>/g)!
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    // A fresh nonce per response.
    const again = (await fetch(`${server.url}/`)).headers.get('content-security-policy')!
    expect(again).not.toContain(nonce)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('permissions-policy')).toContain('camera=()')
  })

  it('only the slideshow may be framed', async () => {
    const slideshow = await fetch(`${server.url}/galeria?slideshow=1`)
    expect(slideshow.headers.get('content-security-policy')).toContain('frame-ancestors *')
  })

  it('API answers and media can run nothing', async () => {
    const ok = await fetch(`${server.url}/api/event`)
    expect(ok.headers.get('content-security-policy')).toBe(`default-src 'none'; frame-ancestors 'none'; sandbox`)
    // Error answers get Nitro's own equivalent.
    for (const response of [ok, await fetch(`${server.url}/api/nope`)]) {
      expect(response.headers.get('content-security-policy')).toMatch(/(default|script)-src 'none'.*frame-ancestors 'none'/)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('the API\'s sandbox policy reaches neither the service worker\'s script nor the web app manifest', async () => {
    // A worker runs under its script's policy: `default-src 'none'` would forbid all its fetches.
    const worker = await fetch(`${server.url}/sw.js`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(worker.headers.get('content-security-policy')).toBeNull()
    const manifest = await fetch(`${server.url}/manifest.webmanifest`)
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('content-security-policy')).toBeNull()
    expect(manifest.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('the offline shell carries the page policy with its own nonce, like every page', async () => {
    const response = await fetch(`${server.url}/app-shell`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy')!
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/)
    const html = await response.text()
    // Client-only: no server-rendered markup or payload to hydrate.
    expect(html).toContain('<div id="__nuxt"></div>')
    expect(html).toContain('data-ssr="false"')
    for (const tag of html.match(/<script\b[^>]*>/g)!) expect(tag).toContain(`nonce="${nonce}"`)
  })
})

describe('strict transport security', () => {
  it('behind a trusted proxy, every answer that came over https carries HSTS, and none over plain http', async () => {
    const server = await startServer({ TRUST_PROXY: 'x-forwarded-for' })
    try {
      for (const path of ['/', '/api/event', '/api/nope']) {
        const https = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'https' } })
        expect(https.headers.get('strict-transport-security'), path).toBe('max-age=31536000')
        const http = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'http' } })
        expect(http.headers.get('strict-transport-security'), path).toBeNull()
        expect((await fetch(`${server.url}${path}`)).headers.get('strict-transport-security'), path).toBeNull()
      }
    }
    finally {
      await server.stop()
    }
  })

  it('without a trusted proxy, a client claiming https gets no HSTS', async () => {
    const server = await startServer()
    try {
      const response = await fetch(`${server.url}/api/event`, { headers: { 'x-forwarded-proto': 'https' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('strict-transport-security')).toBeNull()
    }
    finally {
      await server.stop()
    }
  })

  it('served over https directly (NITRO_SSL_CERT), answers carry HSTS', async () => {
    const server = await startServer(selfSignedCertificate())
    try {
      for (const path of ['/', '/api/event']) {
        const response = await getInsecure(`${server.url}${path}`)
        expect(response.status, path).toBe(200)
        expect(response.headers['strict-transport-security'], path).toBe('max-age=31536000')
      }
    }
    finally {
      await server.stop()
    }
  })
})
