import { z } from './zod'
import { idSchema, singleQuery } from '#shared/schemas/common'
import type { MediaKind, VideoDisplay } from '#shared/enums'
import type { LatestComment } from '#shared/schemas/reactions'

/** A page of /galeria (and the answer's default); the service worker keeps the first one for offline. */
export const GALLERY_PAGE_SIZE = 24
/** A page of the slideshow's polls: the most a page may hold. */
export const SLIDESHOW_PAGE_SIZE = 100

export const galleryQuerySchema = z.strictObject({
  cursor: singleQuery(z.string().min(1).max(200)).optional(),
  limit: singleQuery(z.coerce.number().int().min(1).max(SLIDESHOW_PAGE_SIZE)).default(GALLERY_PAGE_SIZE),
  /** The venue screen's key (docs/api.md, "Who sees the gallery"); a wrong one counts as none. */
  screenKey: singleQuery(z.string().max(200)).optional(),
})

/** GET /api/gallery: a page, of everything or narrowed to one moment or one challenge (not both). */
export const galleryListQuerySchema = galleryQuerySchema.extend({
  /** One moment's items only (docs/api.md, "Moments"); an unknown id lists nothing. */
  moment: singleQuery(idSchema).optional(),
  /** One challenge's answers only (docs/api.md, "Challenges"). */
  challenge: singleQuery(idSchema).optional(),
}).refine(query => query.moment === undefined || query.challenge === undefined, { message: 'moment or challenge, not both', path: ['challenge'] })

/** GET /api/stats: the gallery's counts, open to the venue screen's key as the gallery is. */
export const statsQuerySchema = z.strictObject({
  screenKey: singleQuery(z.string().max(200)).optional(),
})

/** POST /api/gallery/unlock. Any short text is a guess (a wrong one counts against the limit). */
export const galleryUnlockSchema = z.strictObject({
  pin: z.string().min(1).max(32),
})

export interface GalleryItem {
  id: string
  kind: MediaKind
  author: string
  message: string
  url: string
  thumbUrl: string | null
  /** Photos: the 960 px thumbnail for 3× screens (`srcset` with `thumbUrl` at 480 px); null for videos and older photos. */
  thumb2xUrl: string | null
  width: number | null
  height: number | null
  durationSec: number | null
  /**
   * Videos only: what `url` plays (docs/api.md, "Display copies"). `poster-only`: no copy could be
   * made and the original may not play here; show the poster, offer the download.
   */
  display?: Exclude<VideoDisplay, 'pending'>
  createdAt: string
  /** The moment of the day it belongs to, or null. */
  momentId: string | null
  /** The challenge it answers, or null. */
  challengeId: string | null
  /** Devices that hearted it; counts refresh at most once a second (docs/api.md, "Hearts and comments"). */
  hearts: number
  /** Approved comments. */
  commentCount: number
  /** The newest approved comment, so the projector needs no call per slide. */
  latestComment: LatestComment | null
  /** Only while the couple allows guests' downloads: the public file as an attachment (docs/api.md). */
  downloadUrl?: string
}

export interface GalleryPage {
  items: GalleryItem[]
  nextCursor: string | null
}

export interface PublicStats {
  approved: number
  photos: number
  videos: number
}
