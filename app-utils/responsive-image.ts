import { PUBLIC_IMAGE_VARIANTS } from '#shared/media/public-image'

/**
 * `srcset` for a photo's public images, so that a phone downloads the size its screen needs:
 * the 480 px thumbnail, the 960 px one (`thumb2xUrl`, null until made), the display
 * image (at most 2048 px). Widths are the images' longest side, which is what a square crop needs.
 */
export interface PublicImageUrls {
  thumbUrl: string | null
  thumb2xUrl?: string | null
  url: string
}

const { thumb, thumb2x, display } = PUBLIC_IMAGE_VARIANTS

/**
 * Undefined when there is nothing to choose from. Only for photos: a video's `url` is the video
 * itself, which must never be fetched as an image (a tile would download megabytes).
 */
export function photoSrcset(image: PublicImageUrls): string | undefined {
  const candidates: [string | null | undefined, number][] = [
    [image.thumbUrl, thumb.longSide], [image.thumb2xUrl, thumb2x.longSide], [image.url, display.longSide],
  ]
  const seen = new Set<string>()
  const parts: string[] = []
  for (const [url, width] of candidates) {
    // The thumbnail may be the display image itself (a small photo): listed once, at its real use.
    if (!url || seen.has(url)) continue
    seen.add(url)
    parts.push(`${url} ${width}w`)
  }
  return parts.length > 1 ? parts.join(', ') : undefined
}

/**
 * A grid tile's choice: the display image joins only above the 960 px variant. Without that
 * variant (an upload older than the 960 px images) a 3× phone would take the 2048 px image for a 195 px
 * tile: measured with bench/pages.ts, /galeria's images went from 64 KB to 572 KB.
 */
export function tileSrcset(image: PublicImageUrls): string | undefined {
  return image.thumb2xUrl ? photoSrcset(image) : undefined
}
