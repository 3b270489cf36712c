import { fileTypeFromBuffer } from 'file-type'
import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { POSTER_MAX_BYTES } from '#shared/limits'
import type { PosterUploadResponse } from '#shared/schemas/upload'

/** Where a video's poster frame goes: one key per upload, known before it exists. */
export function posterKeyOf(row: Pick<UploadRow, 'id' | 'storageKey'>): string {
  return derivedKey(row.id, row.storageKey, 'poster', 'jpg')
}

/**
 * A signed PUT for the poster of a video not yet confirmed. Only then: once confirmed, the id is
 * public (gallery), and nobody but the guest who sent the video may choose its picture.
 */
export async function signPosterUpload(id: string, size: number): Promise<PosterUploadResponse> {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (row.kind !== 'video') throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'Only videos have posters')
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const { url, headers } = await useMediaStore().presignPut(posterKeyOf(row), { contentType: 'image/jpeg', contentLength: size, expiresIn: ttl })
  return { id, expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), upload: { type: 'single' as const, method: 'PUT' as const, url, headers } }
}

/** At confirm: the poster's key when a real JPEG of an acceptable size was sent, else null (and it goes). */
export async function acceptPoster(row: UploadRow): Promise<string | null> {
  if (row.kind !== 'video') return null
  const store = useMediaStore()
  const key = posterKeyOf(row)
  const object = await store.head(key)
  if (!object) return null
  const sniffed = await fileTypeFromBuffer(await store.readRange(key, 0, 4099))
  if (object.size <= POSTER_MAX_BYTES && sniffed?.mime === 'image/jpeg') return key
  await deleteObjectOrRetryLater(key)
  return null
}

/**
 * Every key an upload may own in storage, including those not recorded yet: a poster sent before
 * the confirm, and a photo's derived images while they are being made (their keys are fixed).
 */
export function ownedKeys(row: UploadRow): string[] {
  const keys = new Set(storageKeysOf(row))
  if (row.kind === 'video') keys.add(posterKeyOf(row))
  else for (const key of Object.values(photoImageKeysOf(row))) keys.add(key)
  return [...keys]
}

/** Removes (or queues for removal) every object an unconfirmed upload owns, its open multipart upload included. */
export async function deleteOwnedObjects(row: UploadRow): Promise<void> {
  for (const key of ownedKeys(row)) await deleteObjectOrRetryLater(key, key === row.storageKey ? row.multipartUploadId : null)
}
