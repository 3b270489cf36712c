/*
 * The service's closed sets of values, each spelled once: the zod schemas, the TypeScript types,
 * drizzle's column enums (db/schema.ts) and the admin filters read them from here. No imports:
 * drizzle-kit loads this file through db/schema.ts and knows no aliases.
 */

export const UPLOAD_STATUSES = ['pending', 'approved', 'rejected'] as const
export type UploadStatus = typeof UPLOAD_STATUSES[number]

/** `audio`: a spoken guestbook message, never part of the gallery (docs/api.md, Guestbook). */
export const MEDIA_KINDS = ['photo', 'video', 'audio'] as const
export type MediaKind = typeof MEDIA_KINDS[number]

/** What the gallery, its counts and the admin's uploads list hold: spoken messages live in the guestbook. */
export const PICTURE_KINDS = ['photo', 'video'] as const
export type PictureKind = typeof PICTURE_KINDS[number]

/** `pre`: an admin approves each upload before the public sees it; `post`: shown at once. */
export const MODERATION_MODES = ['pre', 'post'] as const
export type ModerationMode = typeof MODERATION_MODES[number]

/**
 * Who may browse the gallery: `live`, everyone, at once; `upload-only`, nobody (guests send, the
 * couple and the venue screen see); `reveal`, like `upload-only` until the event's `revealAt`, then live.
 */
export const GALLERY_MODES = ['live', 'upload-only', 'reveal'] as const
export type GalleryMode = typeof GALLERY_MODES[number]

/** The admin list's status filter: one status, or all of them (in the order the filter shows them). */
export const STATUS_FILTERS = [...UPLOAD_STATUSES, 'all'] as const
export type StatusFilter = typeof STATUS_FILTERS[number]

/** The admin list's kind filter: both kinds, or one. */
export const KIND_FILTERS = ['all', ...PICTURE_KINDS] as const
export type KindFilter = typeof KIND_FILTERS[number]

/** The languages the pages, the venue screen, the QR card and the ZIP's manifest speak; the first is the default. */
export const LANGUAGES = ['pt-BR', 'en', 'es'] as const
export type Language = typeof LANGUAGES[number]

/**
 * What a video's public address plays: the `original` (H.264, or a codec every browser plays), its
 * H.264 display `copy`, nothing yet (`pending`: the copy is being made, the video is not listed), or
 * only its poster (`poster-only`: no copy could be made; the original plays on phones that decode it).
 */
export const VIDEO_DISPLAYS = ['original', 'copy', 'pending', 'poster-only'] as const
export type VideoDisplay = typeof VIDEO_DISPLAYS[number]

/** Who makes a display copy of a video this server cannot serve as it is (init's `displayCopy`). */
export const DISPLAY_COPY_MAKERS = ['server', 'phone', 'none'] as const
export type DisplayCopyMaker = typeof DISPLAY_COPY_MAKERS[number]

/** How a batch of new items reaches the couple's notifyUrl: a signed JSON webhook, or an ntfy text. */
export const NOTIFY_FORMATS = ['json', 'ntfy'] as const
export type NotifyFormat = typeof NOTIFY_FORMATS[number]

/** `pending`: only what waits for moderation; `all`: every new item. */
export const NOTIFY_ON = ['pending', 'all'] as const
export type NotifyOn = typeof NOTIFY_ON[number]

/** What a notification names: an upload's kind, a written guestbook message, a comment. */
export const NOTIFY_KINDS = ['photo', 'video', 'audio', 'message', 'comment'] as const
export type NotifyKind = typeof NOTIFY_KINDS[number]
