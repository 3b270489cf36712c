/**
 * The weight an Accept header gives a media type (RFC 9110 §12.5.1): its own entry, else its
 * type's `type/*`, else `*\/*`, else 0 (no header accepts anything, equally).
 */
export function acceptWeight(header: string | undefined, mediaType: string): number {
  if (!header) return 1
  const [type] = mediaType.split('/')
  let exact: number | undefined
  let ofType: number | undefined
  let any: number | undefined
  for (const part of header.split(',')) {
    const [rawRange, ...params] = part.toLowerCase().split(';')
    const range = rawRange!.trim()
    let q = 1
    for (const param of params) {
      const [key, value] = param.trim().split('=')
      if (key === 'q') q = Number(value)
    }
    if (!Number.isFinite(q)) q = 0
    if (range === mediaType) exact = q
    else if (range === `${type}/*`) ofType = q
    else if (range === '*/*') any = q
  }
  return exact ?? ofType ?? any ?? 0
}

/**
 * Whether an error from a media URL (`/media/…`) is answered with the site's error page rather
 * than the contract's JSON error. Only a person opening the address as a page (a tab, a link to
 * an original whose signature expired) reads a page; an image or a video element, the upload
 * page's PUT and any client asking for JSON read none, and rendering the app for each broken
 * image would cost a page render per request. So: a page only for a navigation (`Sec-Fetch-Dest:
 * document`), or, from a client that does not say, when Accept prefers HTML to JSON.
 */
export function wantsErrorPage(accept: string | undefined, fetchDest: string | undefined): boolean {
  if (fetchDest) return fetchDest === 'document' && acceptWeight(accept, 'text/html') >= acceptWeight(accept, 'application/json')
  return acceptWeight(accept, 'text/html') > acceptWeight(accept, 'application/json')
}
