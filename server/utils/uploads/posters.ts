import { fileTypeFromBuffer } from 'file-type'
import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { POSTER_MAX_BYTES, SNIFF_BYTES } from '#shared/limits'
import type { PosterUploadResponse } from '#shared/schemas/upload'
import { useConfig } from '../config'
import { apiError } from '../http/errors'
import { deleteObjectOrRetryLater } from '../storage/deletions'
import { posterKeyOf, stagedKeyOf } from '../storage/keys'
import { useMediaStore } from '../storage/use-media-store'
import { findUpload } from './find'
import { promoteStaged } from './promote'

/**
 * A signed PUT for the poster of a video not yet confirmed. Only then: once confirmed, the id is
 * public (gallery), and nobody but the guest who sent the video may choose its picture.
 */
export async function signPosterUpload(id: string, size: number): Promise<PosterUploadResponse> {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (row.kind !== 'video') throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'Only videos have posters')
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const { url, headers } = await useMediaStore().presignPut(stagedKeyOf(posterKeyOf(row)), { contentType: 'image/jpeg', contentLength: size, expiresIn: ttl })
  return { id, expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), upload: { type: 'single' as const, method: 'PUT' as const, url, headers } }
}

/** At confirm: the poster's key when a real JPEG of an acceptable size was sent, else null (and it goes). */
export async function acceptPoster(row: UploadRow): Promise<string | null> {
  if (row.kind !== 'video') return null
  const store = useMediaStore()
  const key = posterKeyOf(row)
  if (!(await promoteStaged(key))) return null
  const object = await store.head(key)
  if (!object) return null
  const sniffed = await fileTypeFromBuffer(await store.readRange(key, 0, SNIFF_BYTES - 1))
  if (object.size <= POSTER_MAX_BYTES && sniffed?.mime === 'image/jpeg') return key
  await deleteObjectOrRetryLater(key)
  return null
}
