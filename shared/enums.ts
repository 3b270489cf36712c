/*
 * The service's closed sets of values, each spelled once: the zod schemas, the TypeScript types,
 * drizzle's column enums (db/schema.ts) and the admin filters read them from here. No imports:
 * drizzle-kit loads this file through db/schema.ts and knows no aliases.
 */

export const UPLOAD_STATUSES = ['pending', 'approved', 'rejected'] as const
export type UploadStatus = typeof UPLOAD_STATUSES[number]

export const MEDIA_KINDS = ['photo', 'video'] as const
export type MediaKind = typeof MEDIA_KINDS[number]

/** `pre`: an admin approves each upload before the public sees it; `post`: shown at once. */
export const MODERATION_MODES = ['pre', 'post'] as const
export type ModerationMode = typeof MODERATION_MODES[number]

/** The admin list's status filter: one status, or all of them (in the order the filter shows them). */
export const STATUS_FILTERS = [...UPLOAD_STATUSES, 'all'] as const
export type StatusFilter = typeof STATUS_FILTERS[number]

/** The admin list's kind filter: both kinds, or one. */
export const KIND_FILTERS = ['all', ...MEDIA_KINDS] as const
export type KindFilter = typeof KIND_FILTERS[number]

/** The languages the pages, the venue screen, the QR card and the ZIP's manifest speak; the first is the default. */
export const LANGUAGES = ['pt-BR', 'en', 'es'] as const
export type Language = typeof LANGUAGES[number]
