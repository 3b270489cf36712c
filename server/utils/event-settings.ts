import { randomBytes } from 'node:crypto'
import { eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { eventSettings, uploads, type EventSettingsRow, isPublicUpload } from '../../db/schema'
import { revealIssue, type AdminEventConfig, type EventPatch, type PublicEventInfo } from '#shared/schemas/event'
import type { NotifyLastStatus } from '#shared/schemas/notify'
import type { Db, DbTransaction } from './db'
import { readDataVersions } from './http/conditional'
import { invalidRequest } from './http/errors'
import { publicMediaUrls } from './storage/media-urls'
import { useDb } from './db'
import { readLastStatus } from './notify/state'

const SETTINGS_ID = 1

/** A fresh venue screen key: 128 random bits, URL-safe. */
export function newScreenKey(): string {
  return randomBytes(16).toString('base64url')
}

let kept: { at: string, row: Promise<EventSettingsRow> } | undefined

/**
 * The single configuration row, created with the contract's defaults on first use. Read again
 * only when the `event` counter has moved (a trigger moves it on every write to the row, from any
 * instance): a burst of uploads reads the small counter rows instead of the whole row three
 * times per guest. A transaction's own `db` always reads the row itself.
 */
export async function getEventSettings(db: Db = useDb()): Promise<EventSettingsRow> {
  if (db !== useDb()) return readEventSettings(db)
  const versions = await readDataVersions()
  const at = `${versions.epoch}.${versions.event}`
  if (kept?.at !== at) {
    const row = readEventSettings(db)
    row.catch(() => {
      if (kept?.row === row) kept = undefined
    })
    kept = { at, row }
  }
  return kept.row
}

async function readEventSettings(db: Db): Promise<EventSettingsRow> {
  const row = await db.select().from(eventSettings).where(eq(eventSettings.id, SETTINGS_ID)).get()
  if (row?.screenKey && row.notifySecret) return row
  if (!row) await db.insert(eventSettings).values({ id: SETTINGS_ID, screenKey: newScreenKey(), notifySecret: newScreenKey(), updatedAt: new Date() }).onConflictDoNothing()
  // A row from before the screen key (or the webhook secret) gets its own once; a concurrent first read keeps the winner's.
  else {
    await db.update(eventSettings)
      .set({ screenKey: sql`coalesce(${eventSettings.screenKey}, ${newScreenKey()})`, notifySecret: sql`coalesce(${eventSettings.notifySecret}, ${newScreenKey()})` })
      .where(or(isNull(eventSettings.screenKey), isNull(eventSettings.notifySecret)))
  }
  return (await db.select().from(eventSettings).where(eq(eventSettings.id, SETTINGS_ID)).get())!
}

type SettingsChange = Omit<EventPatch, 'revealAt'> & { revealAt?: string | null, coverUploadId?: string | null }

/**
 * Applies a change. A reveal needs its moment: the configuration as it would be afterwards is
 * checked (either field may come alone), and refused whole with 400 INVALID_REQUEST.
 */
export async function updateEventSettings(patch: SettingsChange): Promise<EventSettingsRow> {
  const current = await getEventSettings()
  const { revealAt, ...rest } = patch
  const next = {
    galleryMode: rest.galleryMode ?? current.galleryMode,
    revealAt: revealAt === undefined ? current.revealAt : revealAt === null ? null : new Date(revealAt),
  }
  const issue = revealIssue(next)
  if (issue) throw invalidRequest([issue])
  const [row] = await useDb().update(eventSettings)
    .set({ ...rest, ...(revealAt === undefined ? {} : { revealAt: next.revealAt }), updatedAt: new Date() })
    .where(eq(eventSettings.id, SETTINGS_ID))
    .returning()
  return row!
}

/** Replaces the venue screen key: every screen holding the old one falls back to what guests see. */
export async function rotateScreenKey(): Promise<EventSettingsRow> {
  await getEventSettings()
  const [row] = await useDb().update(eventSettings)
    .set({ screenKey: newScreenKey(), updatedAt: new Date() })
    .where(eq(eventSettings.id, SETTINGS_ID))
    .returning()
  return row!
}

/** Replaces the webhook's HMAC key: receivers must take the new one to verify what comes next. */
export async function rotateNotifySecret(): Promise<EventSettingsRow> {
  await getEventSettings()
  const [row] = await useDb().update(eventSettings)
    .set({ notifySecret: newScreenKey(), updatedAt: new Date() })
    .where(eq(eventSettings.id, SETTINGS_ID))
    .returning()
  return row!
}

/** The cover may only be an approved photo: unsetting it goes with rejecting or deleting it. */
export async function clearCoverOf(tx: DbTransaction, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return
  await tx.update(eventSettings).set({ coverUploadId: null, updatedAt: now }).where(inArray(eventSettings.coverUploadId, ids))
}

/** The admin's view of the configuration, with the last notification's outcome. */
export async function adminEventConfig(row: EventSettingsRow): Promise<AdminEventConfig> {
  return toAdminEventConfig(row, await readLastStatus())
}

export function toAdminEventConfig(row: EventSettingsRow, notifyLastStatus: NotifyLastStatus | null = null): AdminEventConfig {
  return {
    coupleNames: row.coupleNames,
    eventDate: row.eventDate,
    maxFileSizeBytes: row.maxFileSizeBytes,
    allowVideos: row.allowVideos,
    maxVideoDurationSec: row.maxVideoDurationSec,
    moderation: row.moderation,
    allowAudio: row.allowAudio,
    maxAudioDurationSec: row.maxAudioDurationSec,
    language: row.language,
    coverUploadId: row.coverUploadId,
    galleryMode: row.galleryMode,
    revealAt: row.revealAt?.toISOString() ?? null,
    galleryPin: row.galleryPin,
    guestDownloads: row.guestDownloads,
    maxUploadsPerGuest: row.maxUploadsPerGuest,
    screenKey: row.screenKey!,
    screenInClosedMode: row.screenInClosedMode,
    screenSound: row.screenSound,
    notifyUrl: row.notifyUrl,
    notifyFormat: row.notifyFormat,
    notifyOn: row.notifyOn,
    notifySecret: row.notifySecret!,
    notifyLastStatus,
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The cover the public is shown, if any: a photo shows once its display image exists (moments after the upload). */
export async function publicCoverOf({ coverUploadId }: Pick<EventSettingsRow, 'coverUploadId'>): Promise<PublicEventInfo['cover']> {
  if (!coverUploadId) return null
  const upload = await useDb().select().from(uploads).where(eq(uploads.id, coverUploadId)).get()
  const urls = upload && isPublicUpload(upload) ? publicMediaUrls(upload) : null
  return urls && { id: coverUploadId, url: urls.url, thumbUrl: urls.thumbUrl, thumb2xUrl: urls.thumb2xUrl }
}

export function toPublicEventInfo(row: EventSettingsRow, cover: PublicEventInfo['cover']): PublicEventInfo {
  const {
    coverUploadId: _coverUploadId, updatedAt: _updatedAt, galleryPin, screenKey: _screenKey, screenInClosedMode: _screen,
    notifyUrl: _url, notifyFormat: _format, notifyOn: _on, notifySecret: _secret, notifyLastStatus: _last, ...rest
  } = toAdminEventConfig(row)
  return { ...rest, galleryPinRequired: galleryPin !== null, cover }
}
