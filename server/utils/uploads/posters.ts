import type { UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { POSTER_MAX_BYTES } from '#shared/limits'
import { checkPoster } from '#shared/media/poster'
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

/**
 * At confirm: the poster's key when it passes checkPoster where it is now served (a metadata-free
 * JPEG of a drawn frame's size), else null, and it goes: the gallery draws the placeholder tile.
 */
export async function acceptPoster(row: UploadRow): Promise<string | null> {
  if (row.kind !== 'video') return null
  const store = useMediaStore()
  const key = posterKeyOf(row)
  if (!(await promoteStaged(key))) return null
  const object = await store.head(key)
  if (!object) return null
  // One byte past the cap, so that an oversized object (never signed, but a check trusts nothing) is told apart.
  const bytes = object.size > 0 ? await store.readRange(key, 0, Math.min(object.size, POSTER_MAX_BYTES + 1) - 1) : new Uint8Array()
  const structure = checkPoster(bytes)
  const checked = structure.ok && !(await codedDataFillsImage(bytes)) ? { ok: false as const, reason: 'metadata' as const } : structure
  if (checked.ok) return key
  console.warn(`[posters] ${row.id}: the poster was refused (${checked.reason}), the gallery draws a placeholder`)
  await deleteObjectOrRetryLater(key)
  return null
}
