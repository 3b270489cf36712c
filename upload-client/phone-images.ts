import { PUBLIC_IMAGE_VARIANT_NAMES } from '#shared/media/public-image'
import type { PublicImagesDeclaration, PublicImagesUploadResponse } from '#shared/schemas/public-images'
import { sendBestEffort } from './best-effort'
import { makePublicImages, type PublicImages } from './public-images'
import { loadPublicImages, savePublicImages } from './store'
import { postJson, putBlob } from './transport'

/*
 * A photo's public images on their way: made on the phone once (public-images.ts),
 * kept with the queued file so a reload does not make them again, and sent before the confirm,
 * which checks them and makes the photo public at once. Strictly best effort, like a video's
 * poster: every failure here ends in "the original alone", and the server derives the images.
 */

/** Asking for the images' URLs and sending all three, after the original's bytes are on the server. */
const SEND_TIMEOUT_MS = 60_000

/**
 * The public images of a queued photo: those this device made before (a reload), or made now and
 * kept. Null when the browser cannot make them (a HEIC outside Safari): that is remembered too.
 */
export async function publicImagesOf(key: string, file: Blob, signal: AbortSignal): Promise<PublicImages | null> {
  const stored = await loadPublicImages(key)
  if (stored) return stored === 'none' ? null : stored
  const made = await makePublicImages(file, signal)
  if (signal.aborted) return null
  await savePublicImages(key, made ?? 'none')
  return made
}

/**
 * Sends a photo's public images for an upload not yet confirmed: one call for three signed PUTs
 * (exact types and sizes), then the three bytes side by side. Answers whether all arrived; never
 * throws, and gives up after SEND_TIMEOUT_MS or when `signal` (the guest removing the file) aborts.
 */
export function sendPublicImages(uploadId: string, images: Promise<PublicImages | null>, signal: AbortSignal): Promise<boolean> {
  return sendBestEffort(images, signal, SEND_TIMEOUT_MS, async (made, sending) => {
    // No zod here (it would weigh on every guest page's first load): makePublicImages only hands
    // out images that passed the server's own check, and the server validates the declaration.
    const declared = Object.fromEntries(PUBLIC_IMAGE_VARIANT_NAMES.map(variant => [variant, { contentType: made[variant].type, size: made[variant].size }])) as PublicImagesDeclaration
    const targets = await postJson<PublicImagesUploadResponse>(`/api/uploads/${encodeURIComponent(uploadId)}/public-images`, declared, sending)
    await Promise.all(PUBLIC_IMAGE_VARIANT_NAMES.map(variant =>
      putBlob(targets.upload[variant].url, made[variant], targets.upload[variant].headers, () => undefined, sending)))
  })
}
