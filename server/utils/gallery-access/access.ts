import { timingSafeEqual } from 'node:crypto'
import { getQuery, isError, type H3Event } from 'h3'
import { z } from 'zod'
import type { EventSettingsRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { galleryClosedAt } from '#shared/gallery-mode'
import { getEventSettings } from '../event-settings'
import { readDataVersions, type DataVersions } from '../http/conditional'
import { apiError } from '../http/errors'
import { hasGalleryCookie } from './pin-cookie'

/**
 * Who may see the gallery's items (the gallery, the public stats, and whatever else lists what
 * guests sent): docs/api.md, "Who sees the gallery".
 */

/** How a request was let in: as a guest, or as the venue screen with its key. */
export type GalleryViewer = 'guest' | 'screen'

let kept: { at: string, row: Promise<EventSettingsRow> } | undefined
/**
 * The configuration as of these counters: read once per change of it rather than on every poll
 * of the gallery (the counters were read for the request's tag anyway, and move on any instance's write).
 */
export function eventSettingsAt(versions: DataVersions): Promise<EventSettingsRow> {
  const at = `${versions.epoch}.${versions.event}`
  if (kept?.at !== at) {
    const row = getEventSettings()
    row.catch(() => {
      if (kept?.row === row) kept = undefined
    })
    kept = { at, row }
  }
  return kept.row
}

/**
 * What of the configuration a gallery or stats answer depends on, for its tag: who may see it and
 * whether items carry download addresses. The rest (names, dates, the cover) leaves the tag alone,
 * so renaming the couple does not make every polling phone fetch the gallery again.
 */
export function galleryTagInputs(settings: EventSettingsRow): Record<string, unknown> {
  return {
    mode: settings.galleryMode,
    revealAt: settings.revealAt?.getTime() ?? null,
    pin: settings.galleryPin !== null,
    downloads: settings.guestDownloads,
  }
}

const screenKeyQuerySchema = z.looseObject({ screenKey: z.string().max(200).optional().catch(undefined) })

function screenKeyMatches(event: H3Event, settings: EventSettingsRow): boolean {
  const { screenKey } = screenKeyQuerySchema.parse(getQuery(event))
  if (!screenKey || !settings.screenKey) return false
  const given = Buffer.from(screenKey)
  const expected = Buffer.from(settings.screenKey)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Lets the request see the gallery's items, or throws what it must do first: 403 GALLERY_CLOSED
 * (with `revealAt` when a reveal is set) while the mode keeps guests out, then 401
 * GALLERY_PIN_REQUIRED without the cookie of the current PIN. The venue screen's key
 * (`?screenKey=`) passes both, and in a closed mode only while `screenInClosedMode` allows; a
 * wrong key is no key at all.
 */
export async function requireGalleryAccess(event: H3Event, settings?: EventSettingsRow): Promise<GalleryViewer> {
  const row = settings ?? await eventSettingsAt(await readDataVersions())
  const closed = galleryClosedAt(row.galleryMode, row.revealAt)
  if (screenKeyMatches(event, row) && (!closed || row.screenInClosedMode)) return 'screen'
  if (closed) {
    const reveal = row.galleryMode === 'reveal' && row.revealAt ? { revealAt: row.revealAt.toISOString() } : {}
    throw apiError(403, ErrorCode.GALLERY_CLOSED, 'Gallery closed', reveal)
  }
  if (row.galleryPin !== null && !hasGalleryCookie(event, row.galleryPin)) {
    throw apiError(401, ErrorCode.GALLERY_PIN_REQUIRED, 'Gallery PIN required')
  }
  return 'guest'
}

/**
 * Whether the request may see the gallery's items now, as `requireGalleryAccess` decides, without
 * throwing: for answers that must tell a client no more than the gallery would show it.
 */
export async function seesGallery(event: H3Event, settings?: EventSettingsRow): Promise<boolean> {
  try {
    await requireGalleryAccess(event, settings)
    return true
  }
  catch (error) {
    if (isError(error) && (error.statusCode === 401 || error.statusCode === 403)) return false
    throw error
  }
}
