/** The page the venue screen is: the gallery, shown as a slideshow when its address says so. */
export const SLIDESHOW_PAGE = '/galeria'

/** `slideshow=1`: the gallery's address opens the venue screen (its other options: slideshow.ts). */
export const SLIDESHOW_SWITCH = 'slideshow'

/** Whether the query asks for the slideshow (`?slideshow=1`). */
export function isSlideshowQuery(query: Record<string, unknown>): boolean {
  return query[SLIDESHOW_SWITCH] === '1'
}

/**
 * Whether an address opens the venue screen: the one test the page, the server's page policy
 * (only the slideshow may be framed) and the service worker's offline shell all ask.
 */
export function isSlideshowAddress(url: URL): boolean {
  return url.pathname === SLIDESHOW_PAGE && isSlideshowQuery(Object.fromEntries(url.searchParams))
}
