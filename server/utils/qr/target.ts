import type { H3Event } from 'h3'
import type { Language } from '#shared/enums'
import { ErrorCode } from '#shared/errors'
import { QR_URL_MAX_LENGTH } from '#shared/schemas/qrcode'

/** Where guests upload: what the QR code encodes unless told otherwise. */
export const UPLOAD_PAGE_PATH = '/enviar'

/** The default address: the request's own origin, never PUBLIC_BASE_URL (service-spec part 4). */
export function defaultQrTarget(origin: string): string {
  return `${origin}${UPLOAD_PAGE_PATH}`
}

/** The address with `?lang=xx` added (or replaced), so the pages it opens speak the card's language. */
export function withLanguage(target: string, language: Language | undefined): string {
  if (!language) return target
  const url = new URL(target)
  url.searchParams.set('lang', language)
  return url.href
}

/** An absolute http(s) URL of at most 2,048 characters, or null (api-contract.md, QR code). */
export function parseQrUrl(raw: string): URL | null {
  if (raw.length > QR_URL_MAX_LENGTH) return null
  let url: URL
  try {
    url = new URL(raw)
  }
  catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  // The normalised form is what gets encoded, and percent-encoding may have made it longer.
  if (url.href.length > QR_URL_MAX_LENGTH) return null
  return url
}

/** Whether `url` stays on this site: the request's origin or PUBLIC_BASE_URL's. */
export function isOnSite(url: URL, site: { requestOrigin: string, publicBaseUrl: string }): boolean {
  // `https://bank.example@our-host/` is on our origin but reads as the bank's to a guest.
  if (url.username || url.password) return false
  return url.origin === new URL(site.requestOrigin).origin || url.origin === new URL(site.publicBaseUrl).origin
}

/**
 * The address this request's QR code encodes: the default, or the `url` override when the contract
 * allows it; otherwise 400 URL_NOT_ALLOWED. Without an admin session the override must stay on this
 * site, so the event's printed code cannot vouch for someone else's page.
 */
export async function resolveQrTarget(event: H3Event, override: string | undefined): Promise<string> {
  const origin = requestOrigin(event)
  if (override === undefined) return defaultQrTarget(origin)
  const url = parseQrUrl(override)
  // The session costs a database read: look it up only when the answer depends on it.
  const site = { requestOrigin: origin, publicBaseUrl: useConfig().PUBLIC_BASE_URL }
  if (!url || !(isOnSite(url, site) || await getAdminSession(event))) {
    throw apiError(400, ErrorCode.URL_NOT_ALLOWED, 'URL not allowed')
  }
  return url.href
}
