import { eq, sql } from 'drizzle-orm'
import { uploads } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { builtOnce } from '../db'

// Only what the check reads (every PUT of a burst asks, and a whole row costs five times as much),
// built once.
const openCheck = builtOnce(db => db.select({
  id: uploads.id, kind: uploads.kind, storageKey: uploads.storageKey, phoneImages: uploads.phoneImages,
  confirmedAt: uploads.confirmedAt, claim: uploads.claim, claimedUntil: uploads.claimedUntil,
}).from(uploads).where(eq(uploads.id, sql.placeholder('id'))).prepare())

/**
 * A local media PUT writes only while its upload is open: unknown or aborted is 404 `NOT_FOUND`;
 * confirmed, or being confirmed or aborted, is 409 `ALREADY_CONFIRMED`. S3 cannot be asked, which
 * is why single PUTs go to staging on both drivers (promoteStaged): a PUT already past this check
 * when confirm runs lands in staging, never on the verified bytes.
 */
export async function assertUploadOpen(key: string): Promise<void> {
  const row = await openCheck().get({ id: uploadIdOfKey(key) })
  const owned = row && (key === stagedKeyOf(row.storageKey) || key === row.storageKey || (row.kind === 'video' && (key === stagedKeyOf(posterKeyOf(row)) || key === stagedKeyOf(displayCopyKeyOf(row)))) || isStagedPhoneImageKey(row, key))
  if (!row || !owned) throw notFound()
  if (row.confirmedAt || liveClaim(row)) throw apiError(409, ErrorCode.ALREADY_CONFIRMED, 'Already confirmed')
}
