import { describe, expect, it } from 'vitest'
import { useTestServer } from '../support/suite/test-server'
import { api, fetchFresh } from '../support/http'
import { distinctJpeg } from '../support/seed'
import { putBytes } from '../support/uploads'

// A media URL's error is the contract's JSON error for every client but a person opening it as a
// page (docs/api.md, "Local-disk media"). Headers as browsers send them for each kind of request.
const NAVIGATION = { 'accept': 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', 'sec-fetch-dest': 'document', 'accept-language': 'en' }
const IMAGE_ELEMENT = { 'accept': 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'sec-fetch-dest': 'image' }
const VIDEO_ELEMENT = { 'accept': '*/*', 'sec-fetch-dest': 'video', 'range': 'bytes=0-' }
const JSON_CLIENTS: Record<string, Record<string, string>> = {
  'Accept: application/json': { accept: 'application/json' },
  'JSON preferred to HTML': { accept: 'application/json;q=1, text/html;q=0.5' },
  'JSON beside HTML, on a fetch': { 'accept': 'text/html, application/json', 'sec-fetch-dest': 'empty' },
  'JSON on a navigation': { 'accept': 'application/json', 'sec-fetch-dest': 'document' },
  'an image element': IMAGE_ELEMENT,
  'a video element': VIDEO_ELEMENT,
  'any type': { accept: '*/*' },
}

async function expectJsonError(response: Response, status: number, code: string, label: string) {
  expect(response.status, label).toBe(status)
  expect(response.headers.get('content-type'), label).toBe('application/json')
  const body = await response.json()
  expect(body, label).toMatchObject({ statusCode: status, data: { code } })
  expect(typeof body.statusMessage, label).toBe('string')
}

/** The site's error page, in the navigation's language (English: NAVIGATION's Accept-Language). */
async function expectErrorPage(response: Response, status: number, heading: string, label: string) {
  expect(response.status, label).toBe(status)
  expect(response.headers.get('content-type'), label).toBe('text/html;charset=utf-8')
  const html = await response.text()
  expect(html, label).toMatch(/^<!DOCTYPE html>/)
  expect(html, label).toMatch(new RegExp(`<main class="error-page"[^>]*><h1[^>]*>${heading}</h1>`))
}

describe.each(['local', 's3'] as const)('errors of /media URLs (%s driver)', (driver) => {
  const server = useTestServer({ s3: driver === 's3' })
  const missing = () => `${server.url}/media/media/no-such-photo-0123456789-display.jpg`

  it.each(Object.entries(JSON_CLIENTS))('a missing key answers 404 NOT_FOUND as JSON to %s', async (label, headers) => {
    await expectJsonError(await fetchFresh(missing(), { headers }), 404, 'NOT_FOUND', label)
  })

  it('a browser opening the address as a page gets the site\'s error page, in its language, with the same 404', async () => {
    await expectErrorPage(await fetchFresh(missing(), { headers: NAVIGATION }), 404, 'Page not found.', 'navigation')
    // A client that says no Sec-Fetch-Dest but prefers HTML is taken for a person too.
    const { 'sec-fetch-dest': _dest, ...olderBrowser } = NAVIGATION
    await expectErrorPage(await fetchFresh(missing(), { headers: olderBrowser }), 404, 'Page not found.', 'no Sec-Fetch-Dest')
  })

  it('HEAD answers the same status and type, without a body', async () => {
    const response = await fetchFresh(missing(), { method: 'HEAD', headers: { accept: 'application/json' } })
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([404, 'application/json', ''])
  })

  it('a key the server could not have made, or a malformed escape, is the same JSON 404', async () => {
    for (const path of ['/media/%ff', '/media/staging/x.jpg', '/media/orig/..%2F..%2Fevent.db']) {
      await expectJsonError(await fetchFresh(`${server.url}${path}`, { headers: { accept: 'application/json' } }), 404, 'NOT_FOUND', path)
    }
  })
})

describe('errors of signed /media URLs (local driver)', () => {
  const server = useTestServer()

  async function initPhoto() {
    const bytes = await distinctJpeg()
    const init = await api(server.url, '/api/uploads/init', { method: 'POST', json: { fileName: 'a.jpg', contentType: 'image/jpeg', size: bytes.length } })
    expect(init.status).toBe(201)
    return { bytes, url: new URL(init.body.upload.url as string), headers: init.body.upload.headers as Record<string, string> }
  }

  it('a PUT with a forged signature is 403 INVALID_SIGNATURE as JSON, whatever its Accept', async () => {
    const { bytes, url, headers } = await initPhoto()
    url.searchParams.set('sig', 'A'.repeat(43))
    for (const accept of ['application/json', 'text/html', '*/*']) {
      const response = await putBytes(url.href, bytes, { ...headers, accept, 'sec-fetch-dest': 'empty' })
      await expectJsonError(response, 403, 'INVALID_SIGNATURE', accept)
    }
  })

  it('an original without its signature is 403 INVALID_SIGNATURE as JSON, and the error page with 403 for a navigation', async () => {
    const { url } = await initPhoto()
    // The key a confirmed original is served from; unsigned, it is refused before storage is read.
    const original = `${server.url}${url.pathname.replace('/media/staging/', '/media/')}`
    await expectJsonError(await fetchFresh(original, { headers: { accept: 'application/json' } }), 403, 'INVALID_SIGNATURE', 'json')
    await expectJsonError(await fetchFresh(original, { headers: IMAGE_ELEMENT }), 403, 'INVALID_SIGNATURE', 'image')
    await expectErrorPage(await fetchFresh(original, { headers: NAVIGATION }), 403, 'Something went wrong.', 'navigation')
  })
})
