import type { UploadRow } from '../../../db/schema'
import { useMediaStore } from './use-media-store'

/** Signed URLs of photo originals live this long (admin previews and downloads). */
export const ORIGINAL_URL_TTL_SECONDS = 60 * 60

type MediaOf = Pick<UploadRow, 'kind' | 'storageKey' | 'displayKey' | 'thumbKey' | 'thumb2xKey' | 'posterKey'> & Partial<Pick<UploadRow, 'displayCopyKey'>>
interface MediaUrls { url: string, thumbUrl: string | null, thumb2xUrl: string | null }

/**
 * What the public may be shown for an upload. Photos: the metadata-free derived images only, so
 * `null` until they exist (the original may carry the guest's GPS position). Videos: the video
 * itself, or its H.264 display copy when one was made, with its poster frame when one was made.
 */
export function publicMediaUrls(upload: MediaOf): MediaUrls | null {
  const store = useMediaStore()
  if (upload.kind === 'video') {
    return { url: store.publicUrl(upload.displayCopyKey ?? upload.storageKey), thumbUrl: upload.posterKey ? store.publicUrl(upload.posterKey) : null, thumb2xUrl: null }
  }
  if (!upload.displayKey) return null
  const url = store.publicUrl(upload.displayKey)
  return { url, thumbUrl: upload.thumbKey ? store.publicUrl(upload.thumbKey) : url, thumb2xUrl: upload.thumb2xKey ? store.publicUrl(upload.thumb2xKey) : null }
}

/**
 * What an admin is shown: the public images, or for a photo not derived (yet, or ever: an image
 * libvips cannot read), a short-lived signed URL of the original, never a permanent address.
 */
export async function adminMediaUrls(upload: MediaOf): Promise<MediaUrls> {
  const urls = publicMediaUrls(upload)
  if (urls) return urls
  const signed = await useMediaStore().signedGetUrl(upload.storageKey, ORIGINAL_URL_TTL_SECONDS)
  // A voice message has no picture: no thumbnail, rather than its sound as an image's address.
  return { url: signed, thumbUrl: upload.kind === 'audio' ? null : signed, thumb2xUrl: null }
}

export async function originalUrl(upload: Pick<UploadRow, 'kind' | 'storageKey'>): Promise<string> {
  const store = useMediaStore()
  return upload.kind === 'video' ? store.publicUrl(upload.storageKey) : store.signedGetUrl(upload.storageKey, ORIGINAL_URL_TTL_SECONDS)
}
