import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import { dataVersions } from '../../../db/schema'
import { builtOnce } from '../db'

/** The counters of migration 0003: what each conditional answer depends on. */
export type DataName = 'public' | 'uploads' | 'event' | 'guestbook' | 'reactions' | 'comments' | 'moments' | 'challenges'
export type DataVersions = Record<DataName | 'epoch', number>

/**
 * Raise when the fields of any conditional answer change shape: a client holding an older
 * answer then gets the new one, even though no data changed.
 */
const ANSWER_SHAPE = 4

/**
 * An answer that embeds signed URLs has a tag that also changes every sixth of their life, so a
 * 304 never lets the admin's poller keep an answer whose URLs are older than that (10 minutes of
 * an hour's signature).
 */
const SIGNED_ANSWER_PERIODS_PER_TTL = 6

// Read on every conditional request.
const versionsRead = builtOnce(db => db.select().from(dataVersions).prepare())

/** One read of the few counter rows (the table's primary key), per request. */
export async function readDataVersions(): Promise<DataVersions> {
  const rows = await versionsRead().all()
  const versions: DataVersions = { public: 0, uploads: 0, event: 0, guestbook: 0, reactions: 0, comments: 0, moments: 0, challenges: 0, epoch: 0 }
  for (const row of rows) versions[row.name as keyof DataVersions] = row.version
  return versions
}

let urlFingerprint: string | undefined
/** Public media URLs are built from the configuration: a server started with other ones tags differently. */
function configFingerprint(): string {
  if (urlFingerprint) return urlFingerprint
  const { PUBLIC_BASE_URL, S3_BUCKET, S3_PUBLIC_URL, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE } = useConfig()
  urlFingerprint = createHash('sha256').update(JSON.stringify([PUBLIC_BASE_URL, S3_BUCKET, S3_PUBLIC_URL, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE])).digest('base64url').slice(0, 8)
  return urlFingerprint
}

/** A query as a stable string: the validated object, keys sorted, absent values left out. */
export function normalizedQuery(query: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(query).sort().filter(key => query[key] !== undefined).map(key => [key, query[key]]))
}

export interface TagInput {
  /** Which answer (two answers never share a tag). */
  answer: string
  versions: DataVersions
  /** The counters the answer depends on. */
  dependsOn: DataName[]
  /** The validated query. */
  query?: Record<string, unknown>
  /** How long the signed URLs the answer embeds stay valid, in seconds (admin answers); none: it embeds none. */
  signedUrlTtlSeconds?: number
}

/**
 * A weak tag (the same answer is sent identity, gzip or br): the answer's name and shape, the
 * database's epoch and the counters it depends on, the configuration, a hash of the query, and
 * for answers with signed URLs, the current sixth of their life.
 */
export function dataTag({ answer, versions, dependsOn, query, signedUrlTtlSeconds }: TagInput): string {
  const counters = dependsOn.map(name => versions[name]).join('.')
  const queryHash = query ? createHash('sha256').update(normalizedQuery(query)).digest('base64url').slice(0, 12) : '-'
  const period = signedUrlTtlSeconds ? `-${Math.floor(Date.now() / ((signedUrlTtlSeconds * 1000) / SIGNED_ANSWER_PERIODS_PER_TTL))}` : ''
  return `W/"${answer}${ANSWER_SHAPE}-${versions.epoch}.${counters}-${configFingerprint()}-${queryHash}${period}"`
}

/**
 * RFC 9110 §13.1.2 weak comparison: `*`, or any listed tag equal to ours once `W/` is set aside.
 * Every conditional answer asks this (the data answers here, the QR code's).
 */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false
  const opaque = tag.replace(/^W\//, '')
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim()
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque
  })
}

/**
 * Tags the answer and says whether the client already holds it, in which case the status is set
 * to 304 and the handler answers `null` (no body). Public answers may be stored by the browser
 * but must be revalidated every time (`no-cache`), which makes its own polling send
 * If-None-Match; admin answers stay out of every cache (`private, no-store`), and the admin's
 * poller sends the tag from its own memory.
 */
export function notModified(event: H3Event, tag: string, audience: 'public' | 'admin'): boolean {
  setResponseHeader(event, 'etag', tag)
  setResponseHeader(event, 'cache-control', audience === 'public' ? 'no-cache' : 'private, no-store')
  if (!matchesIfNoneMatch(getRequestHeader(event, 'if-none-match'), tag)) return false
  setResponseStatus(event, 304)
  return true
}
