/** Origins the browser must reach besides our own: the bucket for uploads (PUT) and media (GET). */
export function storageOrigins(): string[] {
  const config = useConfig()
  if (!config.S3_BUCKET) return []
  const origins = new Set<string>()
  if (config.S3_PUBLIC_URL) origins.add(new URL(config.S3_PUBLIC_URL).origin)
  if (config.S3_ENDPOINT) {
    const endpoint = new URL(config.S3_ENDPOINT)
    origins.add(endpoint.origin)
    // Virtual-hosted style puts the bucket in the host name.
    if (!config.S3_FORCE_PATH_STYLE) origins.add(`${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`)
  }
  else {
    origins.add(`https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`)
  }
  return [...origins]
}

/** The policy of every HTML page: scripts only with this response's nonce (Nuxt's own included). */
export function pageContentSecurityPolicy(nonce: string, embeddable: boolean): string {
  const storage = storageOrigins().join(' ')
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Vue's transitions and Nuxt set style attributes; styles cannot run code.
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: ${storage}`.trim(),
    `media-src 'self' blob: ${storage}`.trim(),
    `connect-src 'self' ${storage}`.trim(),
    `font-src 'self' data:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors ${embeddable ? '*' : `'none'`}`,
  ].join('; ')
}

/** Where the browser fetches the web app manifest (server/routes/manifest.webmanifest.get.ts). */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest'

/** Everything that is not a page (API answers, media, errors): nothing may run, nothing may frame it. */
export const NON_PAGE_CSP = `default-src 'none'; frame-ancestors 'none'; sandbox`

/**
 * Sent only on answers that came over https (directly or through a trusted proxy): a browser then
 * refuses plain http to this host for a year, so a hostile Wi-Fi cannot strip the https of a later
 * visit. Never over plain http, where it would mean nothing (and a venue laptop serves plain http).
 * No includeSubDomains: other hosts under the same domain are not ours to decide for.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000'

export const COMMON_SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  // The slideshow keeps the projector awake; the guestbook records a spoken message (/recado) with
  // this site's own microphone access; nothing here needs the camera or the location.
  'permissions-policy': 'camera=(), microphone=(self), geolocation=(), payment=(), usb=(), screen-wake-lock=(self), fullscreen=(self)',
  'cross-origin-opener-policy': 'same-origin',
}
