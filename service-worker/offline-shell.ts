/**
 * The offline shell's Content-Security-Policy. Pages carry a nonce made for each response
 * (server/plugins/20.page-csp.ts, with 'strict-dynamic'): a cached page would replay the nonce it
 * was fetched with, forever, and a nonce anyone has seen protects nothing. So each time the shell
 * is served offline, the worker gives it a fresh nonce, in its script tags and in its policy
 * alike. The shell is a client-only render (no guest's text in it), so the only scripts carrying
 * the old nonce are Nuxt's own.
 */

import { isSlideshowAddress } from '#shared/slideshow'

const NONCE_IN_POLICY = /'nonce-([A-Za-z0-9+/=]+)'/

/** A nonce as the server makes them: 16 random bytes, base64. */
export function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/**
 * The shell's html and policy with `nonce` instead of the one they were cached with. The slideshow
 * (`/galeria?slideshow=1`) may be framed by venue display software, as the server allows online.
 */
export function renewShellNonce(html: string, policy: string, nonce: string, embeddable: boolean): { html: string, policy: string } {
  const old = NONCE_IN_POLICY.exec(policy)?.[1]
  const framing = embeddable ? policy.replace(`frame-ancestors 'none'`, 'frame-ancestors *') : policy
  if (!old) return { html, policy: framing }
  return {
    html: html.replaceAll(`nonce="${old}"`, `nonce="${nonce}"`),
    policy: framing.replace(`'nonce-${old}'`, `'nonce-${nonce}'`),
  }
}

/** The cached shell as the answer to a navigation to `url`, with a nonce of its own. */
export async function offlineShellResponse(shell: Response, url: URL): Promise<Response> {
  const headers = new Headers(shell.headers)
  const renewed = renewShellNonce(await shell.text(), headers.get('content-security-policy') ?? '', freshNonce(), isSlideshowAddress(url))
  headers.set('content-security-policy', renewed.policy)
  // The cache holds the body decoded; its length is the new one.
  headers.delete('content-encoding')
  headers.delete('content-length')
  headers.set('x-offline-copy', '1')
  return new Response(renewed.html, { status: 200, statusText: 'OK', headers })
}
