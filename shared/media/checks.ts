import type { MediaKind } from '#shared/enums'
import { ACCEPTED_TYPES, kindOfContentType } from '#shared/limits'
import type { Messages } from '#shared/messages/pt-BR'
import type { PublicEventInfo } from '#shared/schemas/event'
import { blobReader, readMp4Duration } from '#shared/media/mp4-duration'

/**
 * The rules a picked file is checked against before it is sent. The server enforces the same
 * ones at init; checking first lets the page refuse in words, before a byte goes out.
 */

export type MediaCheck
  = | { ok: true, contentType: string, kind: MediaKind, durationSec: number | null }
    | { ok: false, reason: string }

export type EventLimits = Pick<PublicEventInfo, 'maxFileSizeBytes' | 'allowVideos' | 'maxVideoDurationSec'>
  & Partial<Pick<PublicEventInfo, 'allowAudio' | 'maxAudioDurationSec'>>

/**
 * Browsers leave `type` empty, or use an alias, for some files a phone makes (HEIC from a file
 * manager, `.mov` on Android): the extension decides then. HEIC stays HEIC (the server accepts it;
 * iOS already transcodes to JPEG when the picker's `accept` names image types).
 */
const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', jfif: 'image/jpeg', png: 'image/png', webp: 'image/webp',
  gif: 'image/gif', heic: 'image/heic', heif: 'image/heif', avif: 'image/avif',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', qt: 'video/quicktime', webm: 'video/webm',
}
const TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'video/x-m4v': 'video/mp4',
  'image/heic-sequence': 'image/heic', 'image/heif-sequence': 'image/heif',
}

export function contentTypeOf(file: Pick<File, 'name' | 'type'>): string | null {
  const declared = file.type.toLowerCase()
  const type = TYPE_ALIASES[declared] ?? declared
  if (ACCEPTED_TYPES.includes(type)) return type
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase()
  const byExtension = extension ? TYPE_BY_EXTENSION[extension] : undefined
  // The extension only decides when the browser said nothing precise (empty, generic, or the same family).
  if (byExtension && (!type || type === 'application/octet-stream' || type.startsWith(`${byExtension.split('/')[0]}/`))) return byExtension
  return null
}

/** Reads a video's duration in seconds, or null when it cannot. */
export type DurationReader = (file: Blob) => Promise<number | null>

/** Without a browser (tests, the server) only the container header can tell. */
export const readDurationFromHeader: DurationReader = file => readMp4Duration(blobReader(file), file.size)

/** Checks one file against the event's limits; the answer carries what init needs, or the reason in words. */
export async function checkMediaFile(
  file: File,
  limits: EventLimits,
  readDuration: DurationReader,
  // The page's language: passed in, so this module brings no language of its own into the page.
  messages: Messages,
): Promise<MediaCheck> {
  const t = messages.refusal
  const contentType = contentTypeOf(file)
  if (!contentType) return { ok: false, reason: t.unsupported }
  const kind = kindOfContentType(contentType)
  if (kind === 'video' && !limits.allowVideos) return { ok: false, reason: t.videosDisabled }
  if (file.size === 0) return { ok: false, reason: t.empty }
  if (file.size > limits.maxFileSizeBytes) return { ok: false, reason: t.tooLarge(file.size, limits.maxFileSizeBytes) }
  if (kind === 'photo') return { ok: true, contentType, kind, durationSec: null }
  const durationSec = await readDuration(file)
  if (durationSec === null) return { ok: false, reason: t.durationUnreadable }
  // A spoken guestbook message (the recorder's), against the event's own audio limits.
  const maxDurationSec = kind === 'audio' ? limits.maxAudioDurationSec ?? limits.maxVideoDurationSec : limits.maxVideoDurationSec
  if (kind === 'audio' && limits.allowAudio === false) return { ok: false, reason: t.unsupported }
  if (durationSec > maxDurationSec) return { ok: false, reason: t.tooLong(durationSec, maxDurationSec) }
  return { ok: true, contentType, kind, durationSec }
}
