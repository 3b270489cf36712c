import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api } from '../support/http'
import { decodeQr, pdfFonts, pdfInfo, pdfPagePng, pdfText, quietZone, rgba } from '../support/qr'
import type { TestServer } from '../support/server'

interface Answer { status: number, headers: Record<string, string | string[] | undefined>, body: Buffer }

/**
 * GET on the test server with headers fetch will not send (Host): the connection goes to
 * 127.0.0.1 whatever the Host header says, like a request that arrived under another name.
 */
function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', chunk => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const qrPath = (params: Record<string, string>) => `/api/qrcode?${new URLSearchParams(params)}`

describe('GET /api/qrcode', () => {
  const server = useTestServer({ admin: true })

  describe('PNG', () => {
    it('is the default: an 800 px wide PNG with a quiet zone, encoding the request origin + /enviar', async () => {
      const res = await get(server, '/api/qrcode')
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('image/png')
      const pixels = await rgba(res.body)
      expect(pixels.width).toBe(800)
      expect(pixels.height).toBe(800)
      const { marginPx, modulePx } = quietZone(pixels)
      expect(Number.isInteger(modulePx) && modulePx > 0).toBe(true) // every module the same whole pixels
      expect(marginPx).toBeGreaterThanOrEqual(4 * modulePx)
      expect(await decodeQr(res.body)).toBe(`${server.url}/enviar`)
    })

    it('encodes the origin the request arrived through, not PUBLIC_BASE_URL', async () => {
      const res = await get(server, '/api/qrcode', { host: `localhost:${server.port}` })
      expect(res.status).toBe(200)
      expect(await decodeQr(res.body)).toBe(`http://localhost:${server.port}/enviar`)
    })

    it('ignores X-Forwarded-Host and -Proto when TRUST_PROXY is not set', async () => {
      const res = await get(server, '/api/qrcode', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })
      expect(await decodeQr(res.body)).toBe(`${server.url}/enviar`)
    })

    it('encodes a url override on this site exactly', async () => {
      const url = `${server.url}/galeria?mesa=7`
      const res = await get(server, qrPath({ url }))
      expect(res.status).toBe(200)
      expect(await decodeQr(res.body)).toBe(url)
    })

    it('accepts an override on PUBLIC_BASE_URL\'s origin when the request came through another name', async () => {
      const url = `${server.url}/enviar` // PUBLIC_BASE_URL is http://127.0.0.1:PORT in the tests
      const res = await get(server, qrPath({ url }), { host: `localhost:${server.port}` })
      expect(res.status).toBe(200)
      expect(await decodeQr(res.body)).toBe(url)
    })

    it('accepts an override of exactly 2,048 characters', async () => {
      const prefix = `${server.url}/enviar?x=`
      const url = prefix + 'a'.repeat(2048 - prefix.length)
      const res = await get(server, qrPath({ url }))
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('image/png')
      expect((await rgba(res.body)).width).toBe(800)
      expect(await decodeQr(res.body)).toBe(url)
    })
  })

  describe('SVG', () => {
    it('is well-formed SVG without script that rasterises to the same URL', async () => {
      const res = await get(server, qrPath({ format: 'svg' }))
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
      expect(res.headers['content-security-policy']).toBe('default-src \'none\'')
      const text = res.body.toString('utf8')
      expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/)
      expect(text.trimEnd().endsWith('</svg>')).toBe(true)
      expect(text).not.toMatch(/<script/i)
      // librsvg (inside sharp) parses with libxml2 and rejects XML that is not well-formed.
      expect(await decodeQr(res.body)).toBe(`${server.url}/enviar`)
    })

    it('carries markup in the address as modules only, never as text', async () => {
      const url = `${server.url}/enviar?x=<script>alert(1)</script>`
      const res = await get(server, qrPath({ format: 'svg', url }))
      expect(res.status).toBe(200)
      expect(res.body.toString('utf8')).not.toMatch(/<script|alert/i)
      expect(await decodeQr(res.body)).toBe(new URL(url).href)
    })
  })

  describe('PDF card', () => {
    it('is one A6 page with the names, the date in dd/mm/aaaa, the instruction and the address, fonts embedded', async () => {
      const patch = await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João', eventDate: '2026-12-12' } })
      expect(patch.status).toBe(200)

      const res = await get(server, qrPath({ format: 'pdf' }))
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/pdf')
      const info = pdfInfo(res.body)
      expect(info.Pages).toBe('1')
      expect(info['Page size']).toBe('297.64 x 419.53 pts')
      const text = pdfText(res.body)
      expect(text).toContain('Ana & João')
      expect(text).toContain('12/12/2026')
      expect(text).toContain('Aponte a câmera')
      expect(text).toContain(`127.0.0.1:${server.port}/enviar`)
      const fonts = pdfFonts(res.body)
      expect(fonts.length).toBeGreaterThan(0)
      expect(fonts.every(font => font.embedded)).toBe(true)
      expect(await decodeQr(pdfPagePng(res.body))).toBe(`${server.url}/enviar`)
    })

    it('leaves the date out when none is set, and encodes an override', async () => {
      await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João', eventDate: null } })
      const url = `${server.url}/enviar?origem=mesa`
      const res = await get(server, qrPath({ format: 'pdf', url }))
      expect(res.status).toBe(200)
      const text = pdfText(res.body)
      expect(text).toContain('Ana & João')
      expect(text).not.toMatch(/\d{2}\/\d{2}\/\d{4}/)
      expect(await decodeQr(pdfPagePng(res.body))).toBe(url)
    })
  })

  describe('url override rules', () => {
    const refused: [string, (s: TestServer) => string][] = [
      ['a javascript: URL', () => 'javascript:alert(1)'],
      ['a URL over 2,048 characters', s => `${s.url}/enviar?x=${'a'.repeat(2048)}`],
      ['another site, without an admin session', () => 'https://example.com/enviar'],
      ['a relative address', () => '/enviar'],
      ['an ftp: URL', () => 'ftp://127.0.0.1/enviar'],
      ['this host with credentials in front of it', s => `http://bank.example@127.0.0.1:${s.port}/enviar`],
    ]
    for (const [name, url] of refused) {
      it(`answers 400 URL_NOT_ALLOWED for ${name}`, async () => {
        const res = await api(server.url, qrPath({ url: url(server) }))
        expect(res.status).toBe(400)
        expect(res.body.data.code).toBe('URL_NOT_ALLOWED')
      })
    }

    it('refuses a URL on the other name of this host when the request did not come through it', async () => {
      const res = await api(server.url, qrPath({ url: `http://localhost:${server.port}/enviar` }))
      expect(res.status).toBe(400)
      expect(res.body.data.code).toBe('URL_NOT_ALLOWED')
    })

    it('encodes another site\'s URL for an admin', async () => {
      const url = 'https://example.com/enviar?evento=1'
      const res = await get(server, qrPath({ url }), { cookie: server.cookie })
      expect(res.status).toBe(200)
      expect(await decodeQr(res.body)).toBe(url)
    })

    it('still refuses a javascript: URL for an admin', async () => {
      const res = await api(server.url, qrPath({ url: 'javascript:alert(1)' }), { cookie: server.cookie })
      expect(res.status).toBe(400)
      expect(res.body.data.code).toBe('URL_NOT_ALLOWED')
    })

    it('answers 400 INVALID_REQUEST for an unknown format', async () => {
      const res = await api(server.url, qrPath({ format: 'gif' }))
      expect(res.status).toBe(400)
      expect(res.body.data.code).toBe('INVALID_REQUEST')
    })
  })

  describe('caching', () => {
    it('answers 304 to If-None-Match with the ETag it gave', async () => {
      const first = await get(server, qrPath({ format: 'svg' }))
      const etag = first.headers.etag as string
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(first.headers['cache-control']).toBe('private, max-age=300')

      const second = await get(server, qrPath({ format: 'svg' }), { 'if-none-match': etag })
      expect(second.status).toBe(304)
      expect(second.body.length).toBe(0)
      expect(second.headers.etag).toBe(etag)
    })

    it('gives the card a new ETag when the names change, and has it revalidated every time', async () => {
      await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João' } })
      const before = await get(server, qrPath({ format: 'pdf' }))
      expect(before.headers['cache-control']).toBe('private, no-cache')
      expect((await get(server, qrPath({ format: 'pdf' }), { 'if-none-match': before.headers.etag as string })).status).toBe(304)

      await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & Bruno' } })
      const after = await get(server, qrPath({ format: 'pdf' }), { 'if-none-match': before.headers.etag as string })
      expect(after.status).toBe(200)
      expect(after.headers.etag).not.toBe(before.headers.etag)
      expect(pdfText(after.body)).toContain('Ana & Bruno')
    })

    it('names every format\'s file after the couple as the admin\'s download links do, and a new name is a new ETag', async () => {
      await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Ana & João' } })
      const svg = await get(server, qrPath({ format: 'svg' }))
      for (const format of ['png', 'svg', 'pdf']) {
        const res = await get(server, qrPath({ format }))
        expect(res.status).toBe(200)
        expect(res.headers['content-disposition']).toBe(`inline; filename="qr-ana-e-joao.${format}"`)
      }
      await api(server.url, '/api/admin/event', { method: 'PATCH', cookie: server.cookie, json: { coupleNames: 'Márcia & Zé' } })
      const renamed = await get(server, qrPath({ format: 'svg' }), { 'if-none-match': svg.headers.etag as string })
      expect(renamed.status).toBe(200)
      expect(renamed.headers['content-disposition']).toBe('inline; filename="qr-marcia-e-ze.svg"')
      expect(renamed.body.equals(svg.body)).toBe(true)
    })

    it('gives each origin its own ETag', async () => {
      const here = await get(server, '/api/qrcode')
      const there = await get(server, '/api/qrcode', { host: `localhost:${server.port}` })
      expect(here.headers.etag).not.toBe(there.headers.etag)
    })
  })
})

describe('GET /api/qrcode behind a trusted proxy (TRUST_PROXY set)', () => {
  const server = useTestServer({ env: { TRUST_PROXY: 'x-forwarded-for' } })

  it('encodes the address the proxy says the guest used', async () => {
    const headers = { 'x-forwarded-host': 'fotos.example.com', 'x-forwarded-proto': 'https' }
    const res = await get(server, '/api/qrcode', headers)
    expect(await decodeQr(res.body)).toBe('https://fotos.example.com/enviar')
    const override = await get(server, qrPath({ url: 'https://fotos.example.com/galeria' }), headers)
    expect(override.status).toBe(200)
    expect(await decodeQr(override.body)).toBe('https://fotos.example.com/galeria')
  })
})
