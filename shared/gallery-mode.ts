import type { GalleryMode } from '#shared/enums'

/**
 * Whether the gallery is closed to guests at `now`: upload-only, or a reveal whose moment has not
 * come (a reveal without one stays closed). The server's gate and the pages decide it alike.
 */
export function galleryClosedAt(mode: GalleryMode, revealAt: Date | string | null, now = Date.now()): boolean {
  if (mode === 'upload-only') return true
  if (mode === 'reveal') return revealAt === null || now < new Date(revealAt).getTime()
  return false
}
