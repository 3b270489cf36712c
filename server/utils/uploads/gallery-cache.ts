import type { H3Event } from 'h3'
import type { EncodedJson } from '../http/compression'
import { AnswerCache, answerOrigin } from '../http/answer-cache'

/** Pages kept: the newest pages of the few page sizes clients ask for (phones 24, projector 100). */
const MAX_PAGES = 32

const pages = new AnswerCache(MAX_PAGES)

/**
 * The gallery's page for a query, encoded (and compressed on demand) once per change of the data
 * it shows, since until then it is the same for everyone who came through the same origin (see
 * AnswerCache and answerOrigin).
 */
export function cachedGalleryPage(event: H3Event, query: { cursor?: string, limit: number }, tag: string): Promise<EncodedJson> {
  return pages.get(`${answerOrigin(event)} ${query.limit}:${query.cursor ?? ''}`, tag, () => listGallery(query))
}
