import type { H3Event } from 'h3'
import type { EventSettingsRow, UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { foldForSearch } from '#shared/search'

/**
 * Guests' downloads (`guestDownloads`): the public file of an approved item, never a photo's
 * original (it may carry the guest's position): the photo's display image, the video's display
 * copy when it has one, else the video as stored (its recorded position blanked). Served by this
 * server on both drivers, behind the same access as the gallery, so a closed gallery, a PIN or the
 * switch turned off stop a copied link too.
 */

/** The stored file a guest downloads for an upload, or null while a photo has no display image or a video's copy is being made. */
export function publicFileKey(row: Pick<UploadRow, 'kind' | 'storageKey' | 'displayKey' | 'displayCopyKey' | 'display'>): string | null {
  if (row.kind !== 'video') return row.displayKey
  return row.display === 'pending' ? null : row.displayCopyKey ?? row.storageKey
}

/** A file-name fragment: ASCII letters, digits and single dashes, at most 40. */
function nameFragment(text: string): string {
  return foldForSearch(text).replace(/[^a-z0-9]+/g, '-').slice(0, 40).replace(/^-+|-+$/g, '')
}

/**
 * `ana-bruno_maria_<id>.jpg`: the couple's names, the author and the id (unique), in ASCII only, so
 * that no path separator or control character reaches the guest's downloads folder.
 */
export function downloadFileName(coupleNames: string, row: Pick<UploadRow, 'id' | 'author'>, key: string): string {
  const couple = nameFragment(coupleNames) || 'casamento'
  const author = nameFragment(row.author) || 'convidado'
  const extension = /\.([a-z0-9]{2,5})$/.exec(key)?.[1] ?? 'bin'
  return `${couple}_${author}_${row.id.replace(/[^\w-]/g, '')}.${extension}`
}

/** `attachment`, with the name quoted (it is ASCII by construction). */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName}"`
}

/** The address a gallery item's download button uses. */
export function downloadUrlOf(origin: string, id: string): string {
  return `${origin}/api/gallery/download/${encodeURIComponent(id)}`
}

/** Refuses a download while the couple has not allowed them: 403 DOWNLOADS_DISABLED. */
export async function requireGuestDownloads(event: H3Event): Promise<EventSettingsRow> {
  const settings = await eventSettingsAt(await readDataVersions())
  await requireGalleryAccess(event, settings)
  if (!settings.guestDownloads) throw apiError(403, ErrorCode.DOWNLOADS_DISABLED, 'Downloads disabled')
  return settings
}
