import type { z } from 'zod'
import type { GalleryMode, Language, ModerationMode } from '#shared/enums'
import { eventPatchSchema, type AdminEventConfig, type EventPatch } from '#shared/schemas/event'

/*
 * The admin's configuration form, on top of the shared eventPatchSchema. It sits in shared/ rather
 * than app-utils/ because it needs the schema at run time: Nuxt's server build keeps shared/ modules
 * as their own externals and cannot follow a relative import into shared/ from app code.
 */

export const BYTES_PER_MB = 1024 * 1024

const { maxFileSizeBytes, maxVideoDurationSec, maxAudioDurationSec, maxUploadsPerGuest } = eventPatchSchema.shape

/** A number field's bound as the schema declares it (`.min()` / `.max()`). */
function boundOf(number: z.ZodNumber, side: 'min' | 'max'): number {
  const bound = side === 'min' ? number.minValue : number.maxValue
  if (bound === null) throw new Error(`the event schema declares no ${side} for this field`)
  return bound
}

/**
 * The form's number inputs' `min` and `max`, read from the very schema the server applies, so the
 * spinners and the server never disagree. The size is typed in MB; its lower bound is just "not
 * negative" (the schema's one byte is no bound worth a spinner step).
 */
export const eventFieldBounds = {
  maxFileSizeMb: { min: 0, max: boundOf(maxFileSizeBytes.unwrap(), 'max') / BYTES_PER_MB },
  maxVideoDurationSec: { min: boundOf(maxVideoDurationSec.unwrap(), 'min'), max: boundOf(maxVideoDurationSec.unwrap(), 'max') },
  maxAudioDurationSec: { min: boundOf(maxAudioDurationSec.unwrap(), 'min'), max: boundOf(maxAudioDurationSec.unwrap(), 'max') },
  maxUploadsPerGuest: { min: boundOf(maxUploadsPerGuest.unwrap().unwrap(), 'min'), max: boundOf(maxUploadsPerGuest.unwrap().unwrap(), 'max') },
} as const

const pad = (value: number) => String(value).padStart(2, '0')

/**
 * A moment as a `datetime-local` input shows it, in this browser's time zone (the admin's, at or
 * near the venue: the event keeps no zone of its own), to the minute.
 */
export function localDateTimeOf(iso: string | null): string {
  if (!iso) return ''
  const date = new Date(iso)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** What the configuration form edits: the size limit in MB (as typed), the date as the date input gives it. */
export interface EventFormValues {
  coupleNames: string
  eventDate: string
  maxFileSizeMb: number | string
  allowVideos: boolean
  maxVideoDurationSec: number | string
  moderation: ModerationMode
  allowAudio: boolean
  maxAudioDurationSec: number | string
  galleryMode: GalleryMode
  /** As the `datetime-local` input gives it ('' for none). */
  revealAt: string
  /** '' for none. */
  galleryPin: string
  guestDownloads: boolean
  /** '' for no limit. */
  maxUploadsPerGuest: number | string
  screenInClosedMode: boolean
  screenSound: boolean
  language: Language
}

/** The fields this form edits: the notification settings have their own card (AdminNotifications.vue). */
export type EventField = Exclude<keyof NonNullable<EventPatch>, 'notifyUrl' | 'notifyFormat' | 'notifyOn'>

/** The form's starting values for a configuration. */
export function formValuesOf(config: AdminEventConfig): EventFormValues {
  return {
    coupleNames: config.coupleNames,
    eventDate: config.eventDate ?? '',
    maxFileSizeMb: Math.round((config.maxFileSizeBytes / BYTES_PER_MB) * 1000) / 1000,
    allowVideos: config.allowVideos,
    maxVideoDurationSec: config.maxVideoDurationSec,
    moderation: config.moderation,
    allowAudio: config.allowAudio,
    maxAudioDurationSec: config.maxAudioDurationSec,
    galleryMode: config.galleryMode,
    revealAt: localDateTimeOf(config.revealAt),
    galleryPin: config.galleryPin ?? '',
    guestDownloads: config.guestDownloads,
    maxUploadsPerGuest: config.maxUploadsPerGuest ?? '',
    screenInClosedMode: config.screenInClosedMode,
    screenSound: config.screenSound,
    language: config.language,
  }
}

/** A number input's value (an empty or half-typed one is NaN, which the schema refuses). */
function toNumber(value: number | string): number {
  if (typeof value === 'number') return value
  return value.trim() === '' ? Number.NaN : Number(value.replace(',', '.'))
}

/**
 * The reveal moment to send: the saved one while the input still shows it (the input drops
 * seconds), else the typed local time as an ISO instant ('' clears it; a half-typed one stays
 * text, which the schema refuses).
 */
function revealAtOf(typed: string, saved: string | null): string | null {
  if (typed === localDateTimeOf(saved)) return saved
  if (typed === '') return null
  const date = new Date(typed)
  return Number.isNaN(date.getTime()) ? typed : date.toISOString()
}

/**
 * The PATCH body: only the fields that differ from the saved configuration, in the API's units
 * (MB typed by the admin become whole bytes).
 */
export function eventPatchOf(values: EventFormValues, saved: AdminEventConfig): Record<string, unknown> {
  const mb = toNumber(values.maxFileSizeMb)
  const candidate: Record<EventField, unknown> = {
    coupleNames: values.coupleNames,
    eventDate: values.eventDate === '' ? null : values.eventDate,
    maxFileSizeBytes: Number.isFinite(mb) ? Math.round(mb * BYTES_PER_MB) : mb,
    allowVideos: values.allowVideos,
    maxVideoDurationSec: toNumber(values.maxVideoDurationSec),
    moderation: values.moderation,
    allowAudio: values.allowAudio,
    maxAudioDurationSec: toNumber(values.maxAudioDurationSec),
    galleryMode: values.galleryMode,
    revealAt: revealAtOf(values.revealAt, saved.revealAt),
    galleryPin: values.galleryPin.trim() === '' ? null : values.galleryPin.trim(),
    guestDownloads: values.guestDownloads,
    maxUploadsPerGuest: String(values.maxUploadsPerGuest).trim() === '' ? null : toNumber(values.maxUploadsPerGuest),
    screenInClosedMode: values.screenInClosedMode,
    screenSound: values.screenSound,
    language: values.language,
  }
  const patch: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(candidate) as [EventField, unknown][]) {
    if (!Object.is(value, saved[field as keyof AdminEventConfig])) patch[field] = value
  }
  return patch
}

/** Validator issues (zod's own, or the server's `data.issues`) grouped by the field they name. */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[] }[]): Partial<Record<string, true>> {
  const fields: Partial<Record<string, true>> = {}
  for (const issue of issues) fields[issue.path.length > 0 ? String(issue.path[0]) : 'form'] = true
  return fields
}

/**
 * Checks the body with the very schema the server applies. Returns the fields in error, or
 * none when the body would be accepted.
 */
export function validateEventPatch(patch: Record<string, unknown>): { ok: true, data: EventPatch } | { ok: false, fields: Partial<Record<string, true>> } {
  const result = eventPatchSchema.safeParse(patch)
  if (result.success) return { ok: true, data: result.data }
  return { ok: false, fields: fieldErrorsOf((result.error as z.ZodError).issues) }
}
