import { createHash, randomBytes } from 'node:crypto'
import type { MediaKind } from '#shared/enums'
import type { UploadRow } from '../../../db/schema'
import { PUBLIC_IMAGE_FORMATS, PUBLIC_IMAGE_VARIANT_NAMES, type PublicImageVariant } from '#shared/media/public-image'

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif',
  'image/heic': 'heic', 'image/heif': 'heif', 'image/avif': 'avif',
  'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm',
  // Spoken guestbook messages: an extension per type, so a key names its content type (weba, not webm).
  'audio/webm': 'weba', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a', 'audio/mpeg': 'mp3', 'audio/aac': 'aac',
}
const TYPES_BY_EXTENSION = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]))

/**
 * Keys are made here and nowhere else, never from a guest's file name. `orig/` holds photo
 * originals, which may carry GPS EXIF and are only ever handed out as short-lived signed URLs;
 * `media/` holds what the public may see (metadata-free derived images, posters, videos).
 * 96 random bits make a key unguessable.
 */
const KEY_PATTERN = /^(orig|media)\/[\w-]{1,120}\.[a-z0-9]{2,5}$/

function token(): string {
  return randomBytes(12).toString('base64url')
}

export function newId(): string {
  return randomBytes(15).toString('base64url')
}

export function newOriginalKey(id: string, kind: MediaKind, contentType: string): string {
  // Audio is public like a video once confirm has blanked its tags.
  const prefix = kind === 'photo' ? 'orig' : 'media'
  return `${prefix}/${id}-${token()}.${EXTENSIONS[contentType] ?? 'bin'}`
}

/**
 * The same key every time for one original: a derivation interrupted by a crash and run again
 * overwrites its earlier output instead of leaving it behind. Still unguessable, since it hashes
 * the original's secret key.
 */
export function derivedKey(id: string, originalKey: string, variant: PublicImageVariant | 'poster' | 'copy', extension: 'webp' | 'jpg' | 'mp4'): string {
  const digest = createHash('sha256').update(`${originalKey}\n${variant}`).digest('base64url').slice(0, 16)
  return `media/${id}-${digest}-${variant}.${extension}`
}

/**
 * Where a photo's public image of `variant` in `contentType` (JPEG or WebP) goes: fixed per
 * original, variant and format, known before it exists. The format is in the key because the
 * local driver serves a key's type by its extension; a phone's JPEG thumbnail (Safari) and the
 * server's WebP one never share a key.
 */
export function publicImageKeyOf(row: { id: string, storageKey: string }, variant: PublicImageVariant, contentType: string): string {
  return derivedKey(row.id, row.storageKey, variant, contentType === PUBLIC_IMAGE_FORMATS.webp ? 'webp' : 'jpg')
}

/** Where the server's derivation writes a photo's public images: a JPEG display image, WebP thumbnails. */
export function photoImageKeysOf(row: { id: string, storageKey: string }): Record<PublicImageVariant, string> {
  return {
    display: publicImageKeyOf(row, 'display', PUBLIC_IMAGE_FORMATS.jpeg),
    thumb: publicImageKeyOf(row, 'thumb', PUBLIC_IMAGE_FORMATS.webp),
    thumb2x: publicImageKeyOf(row, 'thumb2x', PUBLIC_IMAGE_FORMATS.webp),
  }
}

/** Every key a photo's public images may take, whoever made them, in every format a phone may send. */
function everyPublicImageKeyOf(row: { id: string, storageKey: string }): string[] {
  return PUBLIC_IMAGE_VARIANT_NAMES.flatMap(variant => Object.values(PUBLIC_IMAGE_FORMATS).map(type => publicImageKeyOf(row, variant, type)))
}

/** Where a video's poster frame goes: one key per upload, known before it exists. */
export function posterKeyOf(row: Pick<UploadRow, 'id' | 'storageKey'>): string {
  return derivedKey(row.id, row.storageKey, 'poster', 'jpg')
}

/** Where a video's H.264 display copy goes: one key per upload, so a copy made again after a crash overwrites. */
export function displayCopyKeyOf(row: Pick<UploadRow, 'id' | 'storageKey'>): string {
  return derivedKey(row.id, row.storageKey, 'copy', 'mp4')
}

type KeysOf = Pick<UploadRow, 'id' | 'kind' | 'storageKey' | 'thumbKey' | 'thumb2xKey' | 'displayKey' | 'posterKey'>

/**
 * Every key an upload may own in storage, including those not recorded yet: its staged bytes, a
 * poster or display copy sent before the confirm, a photo's public images sent by the phone or being derived (their
 * keys are fixed).
 */
export function ownedKeys(row: KeysOf): string[] {
  const recorded = [row.storageKey, row.thumbKey, row.thumb2xKey, row.displayKey, row.posterKey].filter((key): key is string => Boolean(key))
  const keys = new Set(recorded)
  keys.add(stagedKeyOf(row.storageKey))
  if (row.kind === 'video') {
    keys.add(posterKeyOf(row))
    keys.add(stagedKeyOf(posterKeyOf(row)))
    keys.add(displayCopyKeyOf(row))
    keys.add(stagedKeyOf(displayCopyKeyOf(row)))
  }
  else {
    // The phone's images (staged until confirm checks them) and the server's, in either format.
    for (const key of everyPublicImageKeyOf(row)) {
      keys.add(key)
      keys.add(stagedKeyOf(key))
    }
  }
  return [...keys]
}

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..')
}

/**
 * Where a single PUT (an original, a poster) lands before confirm: a presigned URL cannot be
 * revoked, so it never points at a key that is served. Confirm moves the verified bytes to the
 * served key (`promoteStaged`), after which the URL can only write here again, to an object nobody
 * reads and the sweeper removes. Never served, never in a public URL, expired by an S3 lifecycle
 * rule as a backstop (README).
 */
export const STAGING_PREFIX = 'staging/'

export function stagedKeyOf(key: string): string {
  return `${STAGING_PREFIX}${key}`
}

/** A staging key's served key, or null when `key` is not a valid staging key. */
export function servedKeyOfStaged(key: string): string | null {
  if (!key.startsWith(STAGING_PREFIX)) return null
  const served = key.slice(STAGING_PREFIX.length)
  return isValidKey(served) ? served : null
}

/** The upload a key belongs to: every key made here starts with the upload's id (`newId`, 20 characters). */
export function uploadIdOfKey(key: string): string {
  const served = servedKeyOfStaged(key) ?? key
  return served.slice(served.indexOf('/') + 1).slice(0, 20)
}

export function isPrivateKey(key: string): boolean {
  return key.startsWith('orig/')
}

export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1)
  return TYPES_BY_EXTENSION[extension] ?? 'application/octet-stream'
}
