import type { H3Event } from 'h3'
import type { EncodedJson } from '../http/compression'
import { AnswerCache, answerOrigin } from '../http/answer-cache'
import type { GalleryListQuery } from './gallery'

/** Pages kept: the newest pages of the few page sizes clients ask for (phones 24, projector 100). */
const MAX_PAGES = 32

const pages = new AnswerCache(MAX_PAGES)

/**
 * The gallery's page for a query, encoded (and compressed on demand) once per change of the data
 * it shows, since until then it is the same for everyone who came through the same origin (see
 * AnswerCache and answerOrigin).
 */
export function cachedGalleryPage(event: H3Event, query: GalleryListQuery, tag: string, downloads: boolean): Promise<EncodedJson> {
  const origin = answerOrigin(event)
  // The downloads switch is in the tag (galleryTagInputs), so an answer with download addresses
  // never outlives it; it is in the key too, as clearly not the same answer.
  return pages.get(`${origin} ${query.limit}:${query.cursor ?? ''}:${downloads ? 'd' : ''}:${query.moment ?? ''}:${query.challenge ?? ''}`, tag, () => listGallery(query, downloads ? origin : undefined))
}
