import { ACCEPTED_TYPES, kindOfContentType, type MediaKind } from '../shared/limits'
import { blobReader, readMp4Duration } from '../shared/media/mp4-duration'
import type { PublicEventInfo } from '../shared/schemas/event'
import { useMessages } from './useMessages'

export type MediaCheck
  = | { ok: true, contentType: string, kind: MediaKind, durationSec: number | null }
    | { ok: false, reason: string }

/** The rules a file is checked against before it is sent: the server enforces the same ones. */
export type EventLimits = Pick<PublicEventInfo, 'maxFileSizeBytes' | 'allowVideos' | 'maxVideoDurationSec'>

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
  'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'video/x-m4v': 'video/mp4', 'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
}

export function contentTypeOf(file: Pick<File, 'name' | 'type'>): string | null {
  const declared = file.type.toLowerCase()
  const type = TYPE_ALIASES[declared] ?? declared
  if (ACCEPTED_TYPES.includes(type)) return type
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase()
  const byExtension = extension ? TYPE_BY_EXTENSION[extension] : undefined
  // Only trust the extension when the browser said nothing precise (empty or a generic type).
  if (byExtension && (!type || type === 'application/octet-stream' || type.startsWith(byExtension.split('/')[0]!))) return byExtension
  return null
}

const METADATA_TIMEOUT_MS = 8000

/** Duration as the browser's own video element reports it; null when it cannot read the file. */
function durationFromVideoElement(file: Blob): Promise<number | null> {
  if (typeof document === 'undefined') return Promise.resolve(null)
  return new Promise((resolve) => {
    const video = document.createElement('video')
    const url = URL.createObjectURL(file)
    let settled = false
    const finish = (value: number | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      video.removeAttribute('src')
      video.load()
      URL.revokeObjectURL(url)
      resolve(value !== null && Number.isFinite(value) && value > 0 ? value : null)
    }
    const timer = setTimeout(() => finish(null), METADATA_TIMEOUT_MS)
    video.preload = 'metadata'
    video.muted = true
    video.onloadedmetadata = () => {
      if (Number.isFinite(video.duration)) return finish(video.duration)
      // Recorded WebM often has no duration in its header: seeking far makes the browser find it.
      video.ondurationchange = () => {
        if (Number.isFinite(video.duration)) finish(video.duration)
      }
      video.currentTime = Number.MAX_SAFE_INTEGER
    }
    video.onerror = () => finish(null)
    video.src = url
  })
}

/**
 * A video's duration in seconds: first from a <video> element's metadata, then, for MP4 and
 * QuickTime files this browser cannot decode, from the container's own header.
 */
export async function readVideoDuration(file: Blob): Promise<number | null> {
  return (await durationFromVideoElement(file)) ?? (await readMp4Duration(blobReader(file), file.size))
}

/** Checks one file against the event's limits; the answer carries what init needs, or the reason in words. */
export async function checkMediaFile(file: File, limits: EventLimits): Promise<MediaCheck> {
  const t = useMessages().refusal
  const contentType = contentTypeOf(file)
  if (!contentType) return { ok: false, reason: t.unsupported }
  const kind = kindOfContentType(contentType)
  if (kind === 'video' && !limits.allowVideos) return { ok: false, reason: t.videosDisabled }
  if (file.size === 0) return { ok: false, reason: t.empty }
  if (file.size > limits.maxFileSizeBytes) return { ok: false, reason: t.tooLarge(file.size, limits.maxFileSizeBytes) }
  if (kind === 'photo') return { ok: true, contentType, kind, durationSec: null }
  const durationSec = await readVideoDuration(file)
  if (durationSec === null) return { ok: false, reason: t.durationUnreadable }
  if (durationSec > limits.maxVideoDurationSec) return { ok: false, reason: t.tooLong(durationSec, limits.maxVideoDurationSec) }
  return { ok: true, contentType, kind, durationSec }
}

/** The checks as a composable, for components that only need to ask. */
export function useMediaChecks() {
  return { contentTypeOf, readVideoDuration, checkMediaFile }
}
