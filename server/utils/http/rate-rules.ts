import type { H3Event } from 'h3'
import type { BucketRule } from './rate-limit'

/**
 * Per-client limits on the public endpoints that cost something. Generous on purpose: a guest
 * sending 200 photos at once must never see one, and in the cloud a whole venue's Wi-Fi may reach
 * us from one address. They stop a script, not a party.
 */
export function uploadRule(): BucketRule {
  const perMinute = useConfig().RATE_LIMIT_UPLOADS_PER_MINUTE
  return { capacity: perMinute, refillPerSecond: perMinute / 60 }
}

export const QR_RULE: BucketRule = { capacity: 60, refillPerSecond: 1 }

/** The gallery's whole ZIP (every photo and video, read from storage): a few per client, then one per two minutes. */
export const GALLERY_ZIP_RULE: BucketRule = { capacity: 3, refillPerSecond: 1 / 120 }

// A named type: mlly's export scanner (Nitro auto-imports) misses functions whose signature holds
// a string-literal union.
type UploadStep = 'init' | 'confirm' | 'undo' | 'abort' | 'refresh'

export async function limitUploads(event: H3Event, name: UploadStep) {
  await consumeToken(event, `uploads-${name}`, clientKey(event), uploadRule())
}
