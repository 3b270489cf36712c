import { GALLERY_PAGE_SIZE, SLIDESHOW_PAGE_SIZE } from '#shared/schemas/gallery'
import { isSlideshowAddress } from '#shared/slideshow'

/** What the service worker serves and keeps, by address (read by sw.ts and its tests). */

/** The offline shell, precached each build (nuxt.config.ts `pwa` and its `ssr: false` route rule). */
export const SHELL_PATH = '/app-shell'
export const API_CACHE = 'public-answers'
export const MEDIA_CACHE = 'gallery-media'
/** The pages that open offline (the slideshow is /galeria?slideshow=1). Never an admin page. */
export const APP_PAGES = new Set(['/', '/enviar', '/galeria'])
/** The public answers kept, network first. Never an /api/admin one. */
export const CACHED_ANSWERS = new Set(['/api/event', '/api/gallery', '/api/qrcode'])
/** The first page /galeria shows, exactly as it asks for it (the cache key is the address). */
export const GALLERY_FIRST_PAGE = `/api/gallery?limit=${GALLERY_PAGE_SIZE}`

/** The first page the slideshow polls. */
export const SLIDESHOW_FIRST_PAGE = `/api/gallery?limit=${SLIDESHOW_PAGE_SIZE}`

/**
 * The answers a page needs offline that reached it some other way (its server render, or before
 * the worker controlled it): the event for every page, and the gallery's or the slideshow's
 * first page.
 */
export function answersOf(url: URL): string[] {
  if (url.pathname === '/galeria') return ['/api/event', isSlideshowAddress(url) ? SLIDESHOW_FIRST_PAGE : GALLERY_FIRST_PAGE]
  return ['/api/event']
}

/** Whether a navigation opens one of the app's pages (online or from the shell). */
export function isAppPage(url: URL): boolean {
  return APP_PAGES.has(url.pathname)
}

/**
 * The name a public image has in storage (server/utils/storage/keys.ts `derivedKey`): under
 * `media/`, the upload's 20-character id, a 16-character digest and the variant: a display image,
 * a thumbnail or a video's poster. A photo's original (`orig/`), a video's own bytes and anything
 * staged never have that name.
 */
const PUBLIC_IMAGE_NAME = /\/media\/[\w-]{20}-[\w-]{16}-(?:display|thumb|thumb2x|poster)\.(?:jpg|webp)$/

/**
 * Whether the worker may keep an image, decided by its address alone (a referrer is cut to the
 * origin for a bucket on another origin, and says nothing then): only a public image, on our
 * origin or the bucket's, with no query. A query is a signed grant (S3's `X-Amz-Signature`, the
 * local driver's `exp`…`sig`): private, short-lived, never kept; so is anything under `orig/`.
 */
export function isPublicImage(url: URL): boolean {
  if (url.search || url.username || url.password) return false
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
  const path = url.pathname
  return !path.includes('/orig/') && !path.includes('/staging/') && PUBLIC_IMAGE_NAME.test(path)
}
