import { eq } from 'drizzle-orm'
import { eventSettings, uploads, type EventSettingsRow } from '../../db/schema'
import type { AdminEventConfig, EventPatch, PublicEventInfo } from '#shared/schemas/event'
import type { Db } from './db'

const SETTINGS_ID = 1

/** The single configuration row, created with the contract's defaults on first use. */
export async function getEventSettings(db: Db = useDb()): Promise<EventSettingsRow> {
  const row = await db.select().from(eventSettings).where(eq(eventSettings.id, SETTINGS_ID)).get()
  if (row) return row
  await db.insert(eventSettings).values({ id: SETTINGS_ID, updatedAt: new Date() }).onConflictDoNothing()
  return (await db.select().from(eventSettings).where(eq(eventSettings.id, SETTINGS_ID)).get())!
}

export async function updateEventSettings(patch: EventPatch & { coverUploadId?: string | null }): Promise<EventSettingsRow> {
  await getEventSettings()
  const [row] = await useDb().update(eventSettings)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(eventSettings.id, SETTINGS_ID))
    .returning()
  return row!
}

export function toAdminEventConfig(row: EventSettingsRow): AdminEventConfig {
  return {
    coupleNames: row.coupleNames,
    eventDate: row.eventDate,
    maxFileSizeBytes: row.maxFileSizeBytes,
    allowVideos: row.allowVideos,
    maxVideoDurationSec: row.maxVideoDurationSec,
    moderation: row.moderation,
    language: row.language,
    coverUploadId: row.coverUploadId,
    updatedAt: row.updatedAt.toISOString(),
  }
}

export async function toPublicEventInfo(row: EventSettingsRow): Promise<PublicEventInfo> {
  const { coverUploadId, updatedAt: _updatedAt, ...rest } = toAdminEventConfig(row)
  let cover: PublicEventInfo['cover'] = null
  if (coverUploadId) {
    const upload = await useDb().select().from(uploads).where(eq(uploads.id, coverUploadId)).get()
    // A photo shows once its display image exists (moments after the upload).
    const urls = upload?.status === 'approved' ? publicMediaUrls(upload) : null
    if (urls) cover = { id: coverUploadId, url: urls.url, thumbUrl: urls.thumbUrl, thumb2xUrl: urls.thumb2xUrl }
  }
  return { ...rest, cover }
}
