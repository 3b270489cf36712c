import { describe, expect, it } from 'vitest'
import { GALLERY_PAGE_SIZE, SLIDESHOW_PAGE_SIZE } from '#shared/schemas/gallery'
import { answersOf, GALLERY_FIRST_PAGE, isAppPage, SLIDESHOW_FIRST_PAGE } from '../../../service-worker/addresses'
import { freshNonce, offlineShellResponse, renewShellNonce } from '../../../service-worker/offline-shell'

const OLD = 'b2xkLW5vbmNlLW9sZC1ub25jZQ=='
const POLICY = `default-src 'self'; script-src 'self' 'nonce-${OLD}' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'`
const SHELL = `<html><head><script nonce="${OLD}" type="module" src="/_nuxt/entry.js"></script></head><body><div id="__nuxt"></div><script nonce="${OLD}">window.__NUXT__={}</script></body></html>`

describe('the offline shell gets a fresh nonce each time it is served', () => {
  it('replaces the cached nonce in every script tag and in the policy', () => {
    const { html, policy } = renewShellNonce(SHELL, POLICY, 'NEW', false)
    expect(html).not.toContain(OLD)
    expect(html.match(/nonce="NEW"/g)).toHaveLength(2)
    expect(policy).toBe(POLICY.replace(`'nonce-${OLD}'`, `'nonce-NEW'`))
    expect(policy).toContain(`'strict-dynamic'`)
    expect(policy).toContain(`frame-ancestors 'none'`)
  })

  it('lets venue display software frame the slideshow, as the server does online', () => {
    expect(renewShellNonce(SHELL, POLICY, 'NEW', true).policy).toContain('frame-ancestors *')
  })

  it('makes nonces as the server does: 16 random bytes, never twice the same', () => {
    const a = freshNonce()
    expect(Buffer.from(a, 'base64')).toHaveLength(16)
    expect(freshNonce()).not.toBe(a)
  })

  it('answers the navigation with the renewed shell and headers that fit its body', async () => {
    const cached = new Response(SHELL, { headers: { 'content-security-policy': POLICY, 'content-type': 'text/html;charset=utf-8', 'content-encoding': 'br', 'content-length': '999' } })
    const response = await offlineShellResponse(cached, new URL('http://venue/enviar'))
    const html = await response.text()
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy')!)![1]
    expect(nonce).not.toBe(OLD)
    expect(html).toContain(`nonce="${nonce}"`)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('content-length')).toBeNull()
    expect(response.headers.get('x-offline-copy')).toBe('1')
  })
})

describe('what the worker serves and keeps', () => {
  it('keeps the first pages the gallery and the slideshow ask for', () => {
    expect(GALLERY_FIRST_PAGE).toBe(`/api/gallery?limit=${GALLERY_PAGE_SIZE}`)
    expect(SLIDESHOW_FIRST_PAGE).toBe(`/api/gallery?limit=${SLIDESHOW_PAGE_SIZE}`)
    expect([GALLERY_FIRST_PAGE, SLIDESHOW_FIRST_PAGE]).toEqual(['/api/gallery?limit=24', '/api/gallery?limit=100'])
    expect(answersOf(new URL('http://venue/galeria?slideshow=1'))).toEqual(['/api/event', SLIDESHOW_FIRST_PAGE])
    expect(answersOf(new URL('http://venue/galeria'))).toEqual(['/api/event', GALLERY_FIRST_PAGE])
    expect(answersOf(new URL('http://venue/enviar'))).toEqual(['/api/event'])
  })

  it('opens the guest pages and the slideshow offline, never an admin page', () => {
    for (const path of ['/', '/enviar', '/galeria', '/galeria?slideshow=1']) expect(isAppPage(new URL(`http://venue${path}`))).toBe(true)
    for (const path of ['/admin', '/admin/login', '/app-shell', '/api/event']) expect(isAppPage(new URL(`http://venue${path}`))).toBe(false)
  })
})
