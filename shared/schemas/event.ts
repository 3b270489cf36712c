import { z } from 'zod'
import { LANGUAGES, MODERATION_MODES, type Language, type ModerationMode } from '#shared/enums'
import { COUPLE_NAMES_MAX_LENGTH, MAX_FILE_SIZE_LIMIT, MAX_VIDEO_DURATION_LIMIT } from '#shared/limits'
import { guestText } from '#shared/schemas/common'

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export const eventDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine(isRealDate, 'not a calendar date')

export const moderationSchema = z.enum(MODERATION_MODES)

/** PATCH /api/admin/event: any subset of the editable fields, nothing else. */
export const eventPatchSchema = z.strictObject({
  coupleNames: guestText(COUPLE_NAMES_MAX_LENGTH, 1),
  eventDate: eventDateSchema.nullable(),
  maxFileSizeBytes: z.number().int().min(1).max(MAX_FILE_SIZE_LIMIT),
  allowVideos: z.boolean(),
  maxVideoDurationSec: z.number().int().min(1).max(MAX_VIDEO_DURATION_LIMIT),
  moderation: moderationSchema,
  language: z.enum(LANGUAGES),
}).partial()

export type EventPatch = z.infer<typeof eventPatchSchema>

export interface AdminEventConfig {
  coupleNames: string
  eventDate: string | null
  maxFileSizeBytes: number
  allowVideos: boolean
  maxVideoDurationSec: number
  moderation: ModerationMode
  /** What the venue screen, the QR card and the guests whose browser asks for none of ours speak. */
  language: Language
  coverUploadId: string | null
  updatedAt: string
}

export type PublicEventInfo = Omit<AdminEventConfig, 'coverUploadId' | 'updatedAt'> & {
  cover: { id: string, url: string, thumbUrl: string | null, thumb2xUrl: string | null } | null
}
