import { randomBytes } from 'node:crypto'
import { isSlideshowAddress } from '#shared/slideshow'

/**
 * A fresh nonce per rendered page, put on every script tag Nuxt writes (its inline config and
 * payload included) and in the page's Content-Security-Policy: no `unsafe-inline` scripts, so
 * an injected `<script>` in a guest's message could never run. The slideshow alone may be framed
 * (venue display software embeds it).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    const nonce = randomBytes(16).toString('base64')
    const withNonce = (chunk: string) => chunk.replace(/<script\b(?![^>]*\bnonce=)/g, `<script nonce="${nonce}"`)
    html.head = html.head.map(withNonce)
    html.bodyPrepend = html.bodyPrepend.map(withNonce)
    html.body = html.body.map(withNonce)
    html.bodyAppend = html.bodyAppend.map(withNonce)
    const embeddable = isSlideshowAddress(getRequestURL(event))
    setResponseHeader(event, 'content-security-policy', pageContentSecurityPolicy(nonce, embeddable))
  })
})
