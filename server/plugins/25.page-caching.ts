/**
 * A server-rendered page speaks the language of the `lang` cookie, else of Accept-Language, and
 * shows what the cookies open (a gallery behind a PIN): a shared cache (a CDN, a proxy) keyed by
 * the address alone would hand one guest's page, in one language, to everyone. The browser may
 * keep it but asks again each time. Client-only renders (the admin, the offline shell) are the
 * same for everyone and are left alone, so is everything that is not a page (/api, media, the
 * build's files).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('render:html', (_html, { event }) => {
    if (getRouteRules(event).ssr === false) return
    setResponseHeader(event, 'vary', 'Accept-Language, Cookie')
    setResponseHeader(event, 'cache-control', 'private, no-cache')
  })
})
