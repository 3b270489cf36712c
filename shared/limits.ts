// Relative imports only: drizzle-kit loads this file through db/schema.ts and knows no aliases.
import type { GalleryMode, Language, MediaKind, ModerationMode, NotifyFormat, NotifyOn } from './enums'

/** Files up to this size go in one PUT; above it, multipart (service-spec part 8: "50 MB" = 50 MiB). */
export const SINGLE_PUT_MAX_BYTES = 50 * 1024 * 1024
/** Every part but the last is exactly this long. */
export const PART_SIZE_BYTES = 10 * 1024 * 1024
/** JSON request bodies above this are refused unread. */
export const JSON_BODY_MAX_BYTES = 64 * 1024
/** A video's poster frame, captured in the browser and sent as a JPEG. */
export const POSTER_MAX_BYTES = 2 * 1024 * 1024
/** Upper bound of the event's own size limit. */
export const MAX_FILE_SIZE_LIMIT = 10 * 1024 * 1024 * 1024
/** Upper bound of the event's own video length limit, in seconds (two hours). */
export const MAX_VIDEO_DURATION_LIMIT = 7200
/** Upper bound of the event's own limit on a spoken guestbook message, in seconds (ten minutes). */
export const MAX_AUDIO_DURATION_LIMIT = 600

/** The event's configuration on a new database (api-contract.md, Event configuration). */
export const EVENT_DEFAULTS = {
  coupleNames: '',
  maxFileSizeBytes: 500 * 1024 * 1024,
  allowVideos: true,
  maxVideoDurationSec: 300,
  moderation: 'post' satisfies ModerationMode,
  allowAudio: true,
  maxAudioDurationSec: 120,
  galleryMode: 'live' satisfies GalleryMode,
  guestDownloads: false,
  screenInClosedMode: true,
  screenSound: false,
  language: 'pt-BR' satisfies Language,
  notifyFormat: 'json' satisfies NotifyFormat,
  notifyOn: 'pending' satisfies NotifyOn,
} as const

/** The disposable-camera limit's range (uploads per guest device), when the couple sets one. */
export const MAX_UPLOADS_PER_GUEST_LIMIT = 1000
/** The gallery PIN: 4 to 8 digits (typed on a phone's numeric keypad). */
export const GALLERY_PIN_PATTERN = /^\d{4,8}$/

/** Longest texts, in characters (api-contract.md): what a guest types, and what the admin edits. */
export const AUTHOR_MAX_LENGTH = 80
export const MESSAGE_MAX_LENGTH = 1000
/** A written guestbook message: as long as an upload's message. */
export const GUESTBOOK_TEXT_MAX_LENGTH = MESSAGE_MAX_LENGTH
export const FILE_NAME_MAX_LENGTH = 255
export const COUPLE_NAMES_MAX_LENGTH = 120
/** A moment's name (the ceremony, the party): a tab on a phone. */
export const MOMENT_NAME_MAX_LENGTH = 60
/** A challenge's prompt ("uma selfie com a noiva"): a card's line or two on a phone. */
export const CHALLENGE_TEXT_MAX_LENGTH = 120
/** The admin list's search text (`q`). */
export const SEARCH_QUERY_MAX_LENGTH = 200

export const ACCEPTED_IMAGE_TYPES = [
  'image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/avif',
] as const
export const ACCEPTED_VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const
/** Spoken guestbook messages: what phones' and browsers' recorders make (WebM/Ogg Opus, MP4 AAC, MP3, raw AAC). */
export const ACCEPTED_AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/aac'] as const
export const ACCEPTED_TYPES: readonly string[] = [...ACCEPTED_IMAGE_TYPES, ...ACCEPTED_VIDEO_TYPES, ...ACCEPTED_AUDIO_TYPES]

// Defined with the other closed sets in enums.ts; still importable from here, as the pages do.
export type { MediaKind } from './enums'

export function kindOfContentType(contentType: string): MediaKind {
  if (contentType.startsWith('audio/')) return 'audio'
  return contentType.startsWith('video/') ? 'video' : 'photo'
}

/** How a file of `size` bytes is cut into parts: the last part holds the rest. */
export function partLayout(size: number): { partCount: number, lastPartSize: number } {
  const partCount = Math.ceil(size / PART_SIZE_BYTES)
  return { partCount, lastPartSize: size - (partCount - 1) * PART_SIZE_BYTES }
}

export function partSize(size: number, partNumber: number): number {
  const { partCount, lastPartSize } = partLayout(size)
  return partNumber === partCount ? lastPartSize : PART_SIZE_BYTES
}

/** Bytes read from the start of a stored file to tell what it really is (file-type needs 4,100). */
export const SNIFF_BYTES = 4100
