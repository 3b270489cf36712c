import { and, isNotNull, ne, sql } from 'drizzle-orm'
import { uploads, PUBLIC_UPLOAD } from '../../../db/schema'
import type { AdminStats } from '#shared/schemas/admin'
import type { PublicStats } from '#shared/schemas/gallery'

// A literal, not a bound parameter: a JS number may be bound as REAL, and the bucket needs integer division.
const HOUR_MS = sql.raw('3600000')
// Spoken guestbook messages are uploads too, counted with the messages (admin/guestbook.ts), never as photos.
const confirmed = and(isNotNull(uploads.confirmedAt), ne(uploads.kind, 'audio'))

/** Counts for the public pages: public uploads only. */
export async function publicStats(): Promise<PublicStats> {
  const row = await useDb().select({
    approved: sql<number>`count(*)`,
    photos: sql<number>`coalesce(sum(${uploads.kind} = 'photo'), 0)`,
    videos: sql<number>`coalesce(sum(${uploads.kind} = 'video'), 0)`,
  }).from(uploads).where(and(PUBLIC_UPLOAD, ne(uploads.kind, 'audio'))).get()
  return { approved: row?.approved ?? 0, photos: row?.photos ?? 0, videos: row?.videos ?? 0 }
}

/**
 * The dashboard's numbers, over confirmed uploads only (an initialised upload that never arrived
 * is nobody's photo). Both queries run in one batch, so they read the same snapshot.
 * `perHour` buckets creation times by UTC hour, oldest first; hours without uploads are left out.
 */
export async function adminStats(): Promise<Omit<AdminStats, 'messages' | 'comments'>> {
  const db = useDb()
  const hour = sql<number>`(${uploads.createdAt} / ${HOUR_MS}) * ${HOUR_MS}`
  const [totals, hours] = await db.batch([
    db.select({
      total: sql<number>`count(*)`,
      pending: sql<number>`coalesce(sum(${uploads.status} = 'pending'), 0)`,
      approved: sql<number>`coalesce(sum(${uploads.status} = 'approved'), 0)`,
      rejected: sql<number>`coalesce(sum(${uploads.status} = 'rejected'), 0)`,
      photos: sql<number>`coalesce(sum(${uploads.kind} = 'photo'), 0)`,
      videos: sql<number>`coalesce(sum(${uploads.kind} = 'video'), 0)`,
      totalBytes: sql<number>`coalesce(sum(${uploads.size}), 0)`,
      lastUploadAt: sql<number | null>`max(${uploads.createdAt})`,
    }).from(uploads).where(confirmed),
    db.select({ hour, count: sql<number>`count(*)` }).from(uploads).where(confirmed).groupBy(hour).orderBy(hour),
  ])
  const row = totals[0]!
  return {
    total: row.total,
    pending: row.pending,
    approved: row.approved,
    rejected: row.rejected,
    photos: row.photos,
    videos: row.videos,
    totalBytes: row.totalBytes,
    lastUploadAt: row.lastUploadAt === null ? null : new Date(Number(row.lastUploadAt)).toISOString(),
    perHour: hours.map(bucket => ({ hour: new Date(Number(bucket.hour)).toISOString(), count: bucket.count })),
  }
}
