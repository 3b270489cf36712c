import { z } from './zod'
import { GALLERY_MODES, LANGUAGES, MODERATION_MODES, type GalleryMode, type Language, type ModerationMode, type NotifyFormat, type NotifyOn } from '#shared/enums'
import { COUPLE_NAMES_MAX_LENGTH, GALLERY_PIN_PATTERN, MAX_AUDIO_DURATION_LIMIT, MAX_FILE_SIZE_LIMIT, MAX_UPLOADS_PER_GUEST_LIMIT, MAX_VIDEO_DURATION_LIMIT } from '#shared/limits'
import { guestText } from '#shared/schemas/common'
import { notifyFormatSchema, notifyOnSchema, notifyUrlSchema, type NotifyLastStatus } from '#shared/schemas/notify'

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export const eventDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine(isRealDate, 'not a calendar date')

export const moderationSchema = z.enum(MODERATION_MODES)
export const galleryModeSchema = z.enum(GALLERY_MODES)
/** An ISO 8601 date-time with its offset (`Z` or `±hh:mm`): a moment, whatever the server's zone. */
export const revealAtSchema = z.iso.datetime({ offset: true })
export const galleryPinSchema = z.string().regex(GALLERY_PIN_PATTERN, '4 to 8 digits')

/** PATCH /api/admin/event: any subset of the editable fields, nothing else. */
export const eventPatchSchema = z.strictObject({
  coupleNames: guestText(COUPLE_NAMES_MAX_LENGTH, 1),
  eventDate: eventDateSchema.nullable(),
  maxFileSizeBytes: z.number().int().min(1).max(MAX_FILE_SIZE_LIMIT),
  allowVideos: z.boolean(),
  maxVideoDurationSec: z.number().int().min(1).max(MAX_VIDEO_DURATION_LIMIT),
  moderation: moderationSchema,
  allowAudio: z.boolean(),
  maxAudioDurationSec: z.number().int().min(1).max(MAX_AUDIO_DURATION_LIMIT),
  galleryMode: galleryModeSchema,
  revealAt: revealAtSchema.nullable(),
  galleryPin: galleryPinSchema.nullable(),
  guestDownloads: z.boolean(),
  maxUploadsPerGuest: z.number().int().min(1).max(MAX_UPLOADS_PER_GUEST_LIMIT).nullable(),
  screenInClosedMode: z.boolean(),
  screenSound: z.boolean(),
  language: z.enum(LANGUAGES),
  notifyUrl: notifyUrlSchema.nullable(),
  notifyFormat: notifyFormatSchema,
  notifyOn: notifyOnSchema,
}).partial()

export type EventPatch = z.infer<typeof eventPatchSchema>

/**
 * The issue a configuration gets when it would be a reveal with no moment to reveal at (checked on
 * the configuration as it would be after a PATCH, since either field may come alone).
 */
export function revealIssue(config: { galleryMode: GalleryMode, revealAt: string | Date | null }): { path: string[], code: 'custom', message: string } | null {
  if (config.galleryMode !== 'reveal' || config.revealAt !== null) return null
  return { path: ['revealAt'], code: 'custom', message: 'required when galleryMode is reveal' }
}

export interface AdminEventConfig {
  coupleNames: string
  eventDate: string | null
  maxFileSizeBytes: number
  allowVideos: boolean
  maxVideoDurationSec: number
  moderation: ModerationMode
  /** Spoken guestbook messages accepted (uploads of kind `audio`), and their longest length in seconds. */
  allowAudio: boolean
  maxAudioDurationSec: number
  /** What the venue screen, the QR card and the guests whose browser asks for none of ours speak. */
  language: Language
  coverUploadId: string | null
  galleryMode: GalleryMode
  revealAt: string | null
  galleryPin: string | null
  guestDownloads: boolean
  maxUploadsPerGuest: number | null
  /** The venue screen's key: `/galeria?slideshow=1&screenKey=…` (rotated by POST /api/admin/event/screen-key). */
  screenKey: string
  screenInClosedMode: boolean
  /** The venue screen plays approved voice messages aloud (once someone taps it); silent cards otherwise. */
  screenSound: boolean
  /** Notifications for the couple (docs/api.md, Notifications): the receiver, its format, what it hears of. */
  notifyUrl: string | null
  notifyFormat: NotifyFormat
  notifyOn: NotifyOn
  /** The webhook's HMAC key (rotated by POST /api/admin/event/notify-secret). */
  notifySecret: string
  notifyLastStatus: NotifyLastStatus | null
  updatedAt: string
}

/** The couple's notification settings: the admin's alone. */
type NotifyField = 'notifyUrl' | 'notifyFormat' | 'notifyOn' | 'notifySecret' | 'notifyLastStatus'

/** What a guest's page may know: never the PIN nor the screen key. */
export type PublicEventInfo = Omit<AdminEventConfig, 'coverUploadId' | 'updatedAt' | 'galleryPin' | 'screenKey' | 'screenInClosedMode' | NotifyField> & {
  /** Whether a PIN guards the gallery (the PIN itself never leaves the admin). */
  galleryPinRequired: boolean
  cover: { id: string, url: string, thumbUrl: string | null, thumb2xUrl: string | null } | null
}
