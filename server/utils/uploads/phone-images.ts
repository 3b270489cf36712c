import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import {
  checkPublicImage, orientedSize, PUBLIC_IMAGE_VARIANT_NAMES, PUBLIC_IMAGE_VARIANTS,
  type PhoneImagesRefusal, type PublicImageVariant, type Size,
} from '#shared/media/public-image'
import type { PublicImagesDeclaration, PublicImagesUploadResponse } from '#shared/schemas/public-images'
import { useConfig } from '../config'
import { useDb } from '../db'
import { apiError } from '../http/errors'
import { deleteObjectOrRetryLater } from '../storage/deletions'
import { publicImageKeyOf, stagedKeyOf } from '../storage/keys'
import { useMediaStore } from '../storage/use-media-store'
import { findUpload } from './find'
import { promoteStaged } from './promote'

/*
 * The guest's phone makes a photo's public images (display, thumb, thumb2x), which spares the
 * server decoding every photo at the peak of a wedding; the server only checks them, reading their structure and never decoding pixels. A photo whose
 * images pass is public at confirm; any refusal is quiet and costs only a fallback to the server's
 * derivation. Nothing a guest sent is ever recorded as public before it has passed the check.
 */

/**
 * Signed PUTs for the public images of a photo not yet confirmed, to staging keys nothing serves.
 * Only before the confirm, as for a video's poster: once confirmed the id is public, and nobody
 * but the guest who sent the photo may choose what the public sees of it. Asking again (a reload
 * that made the images again) replaces the declaration: confirm checks the last one.
 */
export async function signPhoneImageUploads(id: string, declared: PublicImagesDeclaration): Promise<PublicImagesUploadResponse> {
  const row = await findUpload(id)
  if (row.confirmedAt) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
  if (row.kind !== 'photo') throw apiError(409, ErrorCode.NOT_ELIGIBLE, 'Only photos have public images')
  await useDb().update(uploads).set({ phoneImages: declared }).where(eq(uploads.id, id))
  const store = useMediaStore()
  const ttl = useConfig().UPLOAD_URL_TTL_SECONDS
  const signed = await Promise.all(PUBLIC_IMAGE_VARIANT_NAMES.map(async (variant) => {
    const { contentType, size } = declared[variant]
    const { url, headers } = await store.presignPut(stagedKeyOf(publicImageKeyOf(row, variant, contentType)), { contentType, contentLength: size, expiresIn: ttl })
    return [variant, { type: 'single' as const, method: 'PUT' as const, url, headers }] as const
  }))
  return { id, expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), upload: Object.fromEntries(signed) as PublicImagesUploadResponse['upload'] }
}

/** Is `key` where the phone may PUT one of the public images it declared (the local driver's PUT route asks)? */
export function isStagedPhoneImageKey(row: Pick<UploadRow, 'id' | 'kind' | 'storageKey' | 'phoneImages'>, key: string): boolean {
  const declared = row.kind === 'photo' ? row.phoneImages : null
  return Boolean(declared) && PUBLIC_IMAGE_VARIANT_NAMES.some(variant => key === stagedKeyOf(publicImageKeyOf(row, variant, declared![variant].contentType)))
}

/** What confirm makes of the phone's images: none declared, accepted (with their keys), or refused and why. */
export type PhoneImagesOutcome
  = | { accepted: true, keys: Record<PublicImageVariant, string>, original: Size }
    | { accepted: false, refusal: PhoneImagesRefusal }

/** Enough of nearly every photo's start for its size and orientation; a JPEG with a huge EXIF block needs more. */
const HEADER_READS = [64 * 1024, 1024 * 1024]

/** The original's size with its EXIF orientation applied, read from its first bytes (sharp reads the header, no pixels). */
async function originalOrientedSize(row: UploadRow): Promise<Size | null> {
  for (const length of HEADER_READS) {
    const head = await useMediaStore().readRange(row.storageKey, 0, Math.min(length, row.size) - 1)
    const size = await sharp(head).metadata().then(orientedSize, () => null)
    if (size) return size
    if (length >= row.size) break
  }
  return null
}

/** Checks one image where it is now served (moved there first, so what is checked is what stays). */
async function checkServed(key: string, variant: PublicImageVariant, contentType: string, original: Size): Promise<PhoneImagesRefusal | null> {
  const store = useMediaStore()
  const object = await store.head(key)
  if (!object) return 'missing'
  if (object.size === 0) return 'truncated'
  // One byte past the cap, so that an oversized object (never signed, but a check trusts nothing) is told apart.
  const bytes = await store.readRange(key, 0, Math.min(object.size, PUBLIC_IMAGE_VARIANTS[variant].maxBytes + 1) - 1)
  const checked = checkPublicImage(bytes, { variant, original, contentType })
  if (!checked.ok) return checked.reason
  return (await codedDataFillsImage(bytes)) ? null : 'metadata'
}

/**
 * At confirm of a photo, after its original was verified: the phone's images, if it declared
 * any, are moved out of staging (their signed URLs can then only write to staging again) and
 * checked against the declaration and the original's oriented size. All three pass, or none is
 * kept: a refused set is deleted, and the photo goes to the server's derivation.
 */
export async function acceptPhoneImages(row: UploadRow): Promise<PhoneImagesOutcome | null> {
  const declared = row.kind === 'photo' ? row.phoneImages : null
  if (!declared) return null
  const keys = Object.fromEntries(PUBLIC_IMAGE_VARIANT_NAMES.map(variant => [variant, publicImageKeyOf(row, variant, declared[variant].contentType)])) as Record<PublicImageVariant, string>
  const checked = await checkPhoneImages(row, declared, keys)
  if (!checked.ok) {
    for (const key of Object.values(keys)) {
      await deleteObjectOrRetryLater(key)
      await deleteObjectOrRetryLater(stagedKeyOf(key))
    }
    console.warn(`[public-images] ${row.id}: the phone's images were refused (${checked.reason}), the server derives them`)
    return { accepted: false, refusal: checked.reason }
  }
  const store = useMediaStore()
  for (const key of Object.values(keys)) await store.persist(key)
  return { accepted: true, keys, original: checked.original }
}

/** The first reason to refuse the set, or the original's oriented size when every image passed. */
async function checkPhoneImages(row: UploadRow, declared: PublicImagesDeclaration, keys: Record<PublicImageVariant, string>): Promise<{ ok: true, original: Size } | { ok: false, reason: PhoneImagesRefusal }> {
  const [promoted, original] = await Promise.all([Promise.all(Object.values(keys).map(key => promoteStaged(key))), originalOrientedSize(row)])
  if (promoted.includes(false)) return { ok: false, reason: 'missing' }
  if (!original) return { ok: false, reason: 'original-unreadable' }
  // Side by side: on S3 each check is two requests, and a confirm at the peak waits for all of them.
  const reasons = await Promise.all(PUBLIC_IMAGE_VARIANT_NAMES.map(variant => checkServed(keys[variant], variant, declared[variant].contentType, original)))
  const reason = reasons.find(found => found !== null)
  return reason ? { ok: false, reason } : { ok: true, original }
}

/** The columns a confirm writes for the outcome: an accepted set makes the photo displayable at once. */
export function phoneImagesColumns(outcome: PhoneImagesOutcome | null, now: Date): Partial<UploadRow> {
  if (!outcome) return {}
  if (!outcome.accepted) return { phoneImagesRefusal: outcome.refusal }
  return {
    displayKey: outcome.keys.display,
    thumbKey: outcome.keys.thumb,
    thumb2xKey: outcome.keys.thumb2x,
    width: outcome.original.width,
    height: outcome.original.height,
    derivedAt: now,
    publicImageSource: 'phone',
    phoneImagesRefusal: null,
  }
}
