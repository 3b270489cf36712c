import { POSTER_MAX_BYTES } from '#shared/limits'
import { readJpegStructure, type StructureRefusal } from './jpeg'

/**
 * A video's poster: a frame the guest's browser draws and sends, public as the video's gallery
 * tile. It is public like the phone's images of a photo, so it passes the same structural check
 * (readJpegStructure: a JPEG holding only what an encoder needs, no EXIF, XMP, ICC or comment,
 * nothing after EOI), within a byte cap and a frame size the page draws. A refused poster costs
 * only the drawn placeholder tile.
 */

/** The page draws posters at most this wide (a gallery tile on a large screen). */
export const POSTER_MAX_WIDTH = 640
/** A portrait phone video (9:16) at 640 wide is 1138 high; 4:1 leaves room for any real frame. */
export const POSTER_MAX_HEIGHT = 4 * POSTER_MAX_WIDTH

export type PosterRefusal = StructureRefusal | 'too-large' | 'dimensions'

export type PosterCheck
  = | { ok: true, width: number, height: number }
    | { ok: false, reason: PosterRefusal }

export function checkPoster(bytes: Uint8Array): PosterCheck {
  if (bytes.length > POSTER_MAX_BYTES) return { ok: false, reason: 'too-large' }
  if (bytes.length === 0) return { ok: false, reason: 'truncated' }
  const structure = readJpegStructure(bytes)
  if (!structure.ok) return structure
  const { width, height } = structure
  if (width < 1 || height < 1 || width > POSTER_MAX_WIDTH || height > POSTER_MAX_HEIGHT) return { ok: false, reason: 'dimensions' }
  return { ok: true, width, height }
}
