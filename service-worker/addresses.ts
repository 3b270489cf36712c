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

/** Whether an image is one of the gallery's media: our own public ones have no query (a query is a signed, private grant). */
export function isGalleryMedia(url: URL, origin: string): boolean {
  return url.origin === origin ? url.pathname.startsWith('/media/') && !url.search : true
}
