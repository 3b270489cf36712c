import { z } from './zod'
import { PUBLIC_IMAGE_FORMATS, PUBLIC_IMAGE_VARIANTS, type PublicImageVariant } from '../media/public-image'
import type { UploadTarget } from './upload'

/**
 * The phone-made public images of a photo as init declares them, for the server to
 * sign one PUT each with the exact type and length, as for every other upload. The display image
 * is a JPEG (every canvas writes one); the thumbnails WebP, or JPEG where the canvas cannot write
 * WebP (Safari). All three or none: a client that sends none gets the server's derivation.
 */
const declared = (variant: PublicImageVariant, types: readonly [string, ...string[]]) => z.strictObject({
  contentType: z.enum(types),
  size: z.number().int().positive().max(PUBLIC_IMAGE_VARIANTS[variant].maxBytes),
})

const THUMB_TYPES = [PUBLIC_IMAGE_FORMATS.webp, PUBLIC_IMAGE_FORMATS.jpeg] as const

export const publicImagesSchema = z.strictObject({
  display: declared('display', [PUBLIC_IMAGE_FORMATS.jpeg]),
  thumb: declared('thumb', THUMB_TYPES),
  thumb2x: declared('thumb2x', THUMB_TYPES),
})

export type PublicImagesDeclaration = z.infer<typeof publicImagesSchema>

/** Where each declared image goes: single PUTs to keys nobody is served until confirm has checked them. */
export type PublicImageTargets = Record<PublicImageVariant, Extract<UploadTarget, { type: 'single' }>>

/** The answer to POST /api/uploads/:id/public-images: where to PUT each image, before the photo's confirm. */
export interface PublicImagesUploadResponse {
  id: string
  expiresAt: string
  upload: PublicImageTargets
}
