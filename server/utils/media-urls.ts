import type { UploadRow } from '../../db/schema'

/** Signed URLs of photo originals live this long (admin previews, the gallery before derivation). */
export const ORIGINAL_URL_TTL_SECONDS = 60 * 60

/**
 * What the public may be shown for an upload. Photos: the metadata-free derived images; until
 * they exist, a short-lived signed URL of the original so its key never becomes a permanent
 * public address. Videos: the video itself, with its poster frame when one was made.
 */
export async function publicMediaUrls(upload: Pick<UploadRow, 'kind' | 'storageKey' | 'displayKey' | 'thumbKey' | 'posterKey'>): Promise<{ url: string, thumbUrl: string | null }> {
  const store = useMediaStore()
  if (upload.kind === 'video') {
    return { url: store.publicUrl(upload.storageKey), thumbUrl: upload.posterKey ? store.publicUrl(upload.posterKey) : null }
  }
  if (upload.displayKey) {
    const url = store.publicUrl(upload.displayKey)
    return { url, thumbUrl: upload.thumbKey ? store.publicUrl(upload.thumbKey) : url }
  }
  const signed = await store.signedGetUrl(upload.storageKey, ORIGINAL_URL_TTL_SECONDS)
  return { url: signed, thumbUrl: signed }
}

export async function originalUrl(upload: UploadRow): Promise<string> {
  const store = useMediaStore()
  return upload.kind === 'video' ? store.publicUrl(upload.storageKey) : store.signedGetUrl(upload.storageKey, ORIGINAL_URL_TTL_SECONDS)
}

/** Every object an upload owns in storage. */
export function storageKeysOf(upload: Pick<UploadRow, 'storageKey' | 'thumbKey' | 'displayKey' | 'posterKey'>): string[] {
  return [upload.storageKey, upload.thumbKey, upload.displayKey, upload.posterKey].filter((key): key is string => Boolean(key))
}
