import { EncodedJson } from '../http/compression'

/** Pages kept: the newest pages of the few page sizes clients ask for (phones 24, projector 100). */
const MAX_PAGES = 32

const pages = new Map<string, { tag: string, answer: Promise<EncodedJson> }>()

/**
 * The gallery's page for a query, encoded (and compressed on demand) once per change of the data
 * it shows, since until then it is the same for everyone. The caller read the tag from the
 * database for this request, so a page made before the latest change is never served: a change
 * elsewhere, even on another instance, moves the tag, and the next request makes the page again.
 * Concurrent requests for a page being made wait for the same query.
 */
export function cachedGalleryPage(query: { cursor?: string, limit: number }, tag: string): Promise<EncodedJson> {
  const key = `${query.limit}:${query.cursor ?? ''}`
  const kept = pages.get(key)
  if (kept?.tag === tag) {
    // Most recently used last: the pages everyone polls outlive a visitor paging deep once.
    pages.delete(key)
    pages.set(key, kept)
    return kept.answer
  }
  const answer = listGallery(query).then(page => new EncodedJson(page))
  // A failed query is not kept: the next request tries again.
  answer.catch(() => {
    if (pages.get(key)?.answer === answer) pages.delete(key)
  })
  pages.delete(key)
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!)
  pages.set(key, { tag, answer })
  return answer
}
