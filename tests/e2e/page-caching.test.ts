import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { fetchFresh } from '../support/http'

// A page speaks the `lang` cookie's or Accept-Language's language: no shared cache may keep one
// language's page for everyone (docs/api.md, "Response headers").
describe('what server-rendered pages tell caches', () => {
  const server = useTestServer()
  const get = (path: string, headers: Record<string, string> = {}) => fetchFresh(`${server.url}${path}`, { headers, redirect: 'manual' })

  // The venue screen speaks the event's language, whoever asks (its address may override it).
  it.each([
    ['/', 'es'], ['/enviar', 'es'], ['/galeria', 'es'], ['/recado', 'es'], ['/galeria?ver=recados', 'es'], ['/galeria?slideshow=1', 'pt-BR'],
  ])('%s varies with Accept-Language and Cookie, private, revalidated', async (path, lang) => {
    const response = await get(path, { 'accept': 'text/html', 'accept-language': 'es' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html;charset=utf-8')
    expect(response.headers.get('vary')).toBe('Accept-Language, Cookie')
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
    expect(await response.text()).toContain(`<html  lang="${lang}"`)
  })

  it('so does the error page of an unknown address, and a page in the cookie\'s language', async () => {
    const missing = await get('/no-such-page', { accept: 'text/html' })
    expect(missing.status).toBe(404)
    expect([missing.headers.get('vary'), missing.headers.get('cache-control')]).toEqual(['Accept-Language, Cookie', 'private, no-cache'])
    const english = await get('/', { 'accept': 'text/html', 'cookie': 'lang=en', 'accept-language': 'es' })
    expect([english.headers.get('vary'), english.headers.get('cache-control')]).toEqual(['Accept-Language, Cookie', 'private, no-cache'])
    expect(await english.text()).toContain('<html  lang="en"')
  })

  it('answers that are not server-rendered pages keep their own caching', async () => {
    const expected: [string, string | null][] = [
      ['/api/event', 'no-cache'],
      ['/api/health', 'no-store'],
      ['/manifest.webmanifest', 'no-cache'],
      ['/sw.js', 'public, max-age=0, must-revalidate'],
      ['/icons/icon-192.png', null],
    ]
    for (const [path, cacheControl] of expected) {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('vary') ?? '', path).not.toMatch(/accept-language|cookie/i)
      if (cacheControl) expect(response.headers.get('cache-control'), path).toBe(cacheControl)
      else expect(response.headers.get('cache-control') ?? '', path).not.toContain('private')
    }
    // A media error, and the client-only renders (the admin, the service worker's offline shell).
    const media = await get('/media/media/x-display.jpg', { accept: 'application/json' })
    expect(media.status).toBe(404)
    expect(media.headers.get('vary')).toBeNull()
    for (const path of ['/admin', '/app-shell']) {
      const response = await get(path, { accept: 'text/html' })
      expect(response.status, path).toBe(200)
      expect(response.headers.get('vary'), path).toBeNull()
      expect(response.headers.get('cache-control'), path).toBeNull()
    }
  })
})
