import type { H3Event } from 'h3'
import type { EncodedJson } from '../http/compression'
import { AnswerCache, answerOrigin } from '../http/answer-cache'
import { normalizedQuery } from '../http/conditional'
import { listAdminUploads, type AdminUploadsQuery } from './uploads'

/**
 * Lists kept: the few views a handful of admins poll (each tab, a search or two). A page is at
 * most 200 items, so this holds a few megabytes at worst.
 */
const MAX_LISTS = 16

const lists = new AnswerCache(MAX_LISTS)

/**
 * The admin list for a query, made once per change of the uploads or the event (the tag), and
 * answered to every admin from memory until then: several admins on tablets poll the same views
 * all evening. Its tag (dataTag with `signed`) also moves every ten minutes, so the originals'
 * URLs in a kept list are never older than they may be in a 304. The local driver's URLs name the
 * origin the request came to, so lists are kept per origin.
 */
export function cachedAdminUploads(event: H3Event, query: AdminUploadsQuery, tag: string): Promise<EncodedJson> {
  return lists.get(`${answerOrigin(event)} ${normalizedQuery(query)}`, tag, () => listAdminUploads(query))
}
