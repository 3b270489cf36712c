import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { useConfig } from '../config'
import { builtOnce, storedValue, useDb } from '../db'

export type UploadClaim = NonNullable<UploadRow['claim']>

/** How long a claim holds when its holder neither finishes nor lets go (it crashed). */
const CLAIM_LEASE_MS = 120_000

/**
 * A claim never outlives the upload's staleness: an upload nobody finished by then is the
 * sweeper's, and a crashed confirm must not keep its record (and bytes) from being swept.
 */
function leaseMs(): number {
  return Math.min(CLAIM_LEASE_MS, useConfig().UPLOAD_STALE_AFTER_SECONDS * 1000)
}

/**
 * Takes an unconfirmed upload for a confirm or an abort (or the sweeper, as an abort): one
 * conditional UPDATE, so of two racing on one id, in this process or another instance sharing the
 * database, exactly one gets the row. Null when the upload is gone, confirmed or claimed by a
 * holder whose lease has not lapsed. The answered row's `claimedUntil` is the holder's token.
 */
export async function claimUpload(id: string, claim: UploadClaim): Promise<UploadRow | null> {
  const now = new Date()
  // Times in milliseconds, as stored: see storedValue.
  const [row] = await claimStatement().all({ id, claim, until: now.getTime() + leaseMs(), now: now.getTime() })
  return row ?? null
}

// Built once: every confirm, abort and sweep of an upload claims it first.
const claimStatement = builtOnce(db => db.update(uploads)
  .set({ claim: storedValue('claim'), claimedUntil: storedValue('until') })
  .where(and(eq(uploads.id, sql.placeholder('id')), isNull(uploads.confirmedAt), or(isNull(uploads.claimedUntil), lt(uploads.claimedUntil, sql.placeholder('now')))))
  .returning()
  .prepare())

/** The condition only the claim's holder still meets (its lease may have lapsed and been taken). */
export function heldBy(row: UploadRow) {
  return and(eq(uploads.id, row.id), isNull(uploads.confirmedAt), eq(uploads.claimedUntil, row.claimedUntil!))
}

/** Lets go of a claim that did not finish (a confirm refused with 409): the upload is open again. */
export async function releaseClaim(row: UploadRow): Promise<void> {
  await useDb().update(uploads).set({ claim: null, claimedUntil: null }).where(heldBy(row))
}

/** The live claim on a row, if any. */
export function liveClaim(row: Pick<UploadRow, 'claim' | 'claimedUntil'>, now = Date.now()): UploadClaim | null {
  return row.claim && row.claimedUntil && row.claimedUntil.getTime() >= now ? row.claim : null
}
