import type { H3Event } from 'h3'
import type { EncodedJson } from '../http/compression'
import { AnswerCache, answerOrigin } from '../http/answer-cache'
import { listGuestbook } from './list'

/** Pages kept: the newest pages of the few page sizes clients ask for (phones, the projector). */
const MAX_PAGES = 16

const pages = new AnswerCache(MAX_PAGES)

/** The guestbook's page for a query, made once per change of what it shows (as the gallery's). */
export function cachedGuestbookPage(event: H3Event, query: { cursor?: string, limit: number }, tag: string): Promise<EncodedJson> {
  return pages.get(`${answerOrigin(event)} ${query.limit}:${query.cursor ?? ''}`, tag, () => listGuestbook(query))
}
