import type { H3Event } from 'h3'
import type { EventSettingsRow } from '../../../db/schema'
import { requireGalleryAccess, type GalleryViewer } from '../gallery-access/access'

/**
 * Who may read the guestbook: the same guests who may see the gallery (its modes, its PIN, the
 * venue screen's key), so that both answer alike. The one place the guestbook's public reads ask.
 */
export function requireGuestbookAccess(event: H3Event, settings?: EventSettingsRow): Promise<GalleryViewer> {
  return requireGalleryAccess(event, settings)
}
