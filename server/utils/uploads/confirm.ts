import { eq } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import { uploads, type UploadRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { partLayout, partSize, SNIFF_BYTES } from '#shared/limits'
import type { ConfirmUploadResponse } from '#shared/schemas/upload'
import { useDb } from '../db'
import { getEventSettings } from '../event-settings'
import { apiError, notFound } from '../http/errors'
import { announceNewItem } from '../notify/announce'
import { stagedKeyOf } from '../storage/keys'
import { StorageUnavailableError, type VideoLocationOutcome } from '../storage/media-store'
import { useMediaStore } from '../storage/use-media-store'
import { discardUpload } from './abort'
import { claimUpload, heldBy, liveClaim, releaseClaim } from './claim'
import { scheduleDerivation } from './derivation-queue'
import { verifiedDeclaredHash } from './duplicates'
import { findUpload } from './find'
import { tokenMatches } from './undo'
import { acceptPhoneImages, phoneImagesColumns } from './phone-images'
import { acceptPoster } from './posters'
import { sniffedAudioMatches } from '#shared/media/audio-tags'
import { stepsOfKind } from './kind-steps'
import { checkVideoDuration } from './video-duration'
import { displayAtConfirm, displayCopyMaker } from './display-copy'
import { acceptPhoneCopy } from './phone-copy'

/** What file-type may find in the first bytes of each kind (subtypes within a kind may differ). */
const SNIFFED_PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence', 'image/avif'])
const SNIFFED_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm', 'video/x-m4v', 'video/3gpp', 'video/x-matroska'])

function sniffedKindMatches(row: UploadRow, mime: string | undefined): boolean {
  if (!mime) return false
  // Guestbook: a spoken message must be an audio container of its declared family.
  if (row.kind === 'audio') return sniffedAudioMatches(row.contentType, mime)
  return row.kind === 'photo' ? SNIFFED_PHOTO_TYPES.has(mime) : SNIFFED_VIDEO_TYPES.has(mime)
}

/** A multipart upload completes straight at its served key: completion ends its part URLs. */
async function completeParts(row: UploadRow): Promise<UploadRow> {
  const store = useMediaStore()
  const expected = partLayout(row.size).partCount
  // S3 forgets an upload once completed ("no such upload"): then the object itself decides.
  const parts = await store.listParts(row.storageKey, row.multipartUploadId!).catch((error) => {
    if (error instanceof StorageUnavailableError) throw error
    return []
  })
  if (parts.length === 0 && (await store.head(row.storageKey))?.size === row.size) {
    // Completed by an earlier confirm that stopped before recording it (crash, timeout).
    const [updated] = await useDb().update(uploads).set({ multipartUploadId: null }).where(eq(uploads.id, row.id)).returning()
    return updated!
  }
  const sizes = new Map(parts.map(part => [part.partNumber, part.size]))
  const missing: number[] = []
  for (let n = 1; n <= expected; n++) {
    if (sizes.get(n) !== partSize(row.size, n)) missing.push(n)
  }
  if (missing.length) {
    throw apiError(409, ErrorCode.OBJECT_MISSING, 'Object missing', { missingParts: missing })
  }
  await store.completeMultipart(row.storageKey, row.multipartUploadId!, parts.filter(part => part.partNumber <= expected))
  const [updated] = await useDb().update(uploads).set({ multipartUploadId: null }).where(eq(uploads.id, row.id)).returning()
  return updated!
}

/**
 * The bytes are not what init declared (size, kind by their first bytes, or a video with no
 * readable box structure): they go with their record, and the guest is told why (422).
 */
async function refuse(row: UploadRow, storedSize: number, detectedType: string | undefined, videoProblem?: string): Promise<never> {
  await discardUpload(row)
  throw apiError(422, ErrorCode.CONTENT_MISMATCH, 'Content mismatch', {
    declaredSize: row.size, storedSize, detectedType: detectedType ?? null, ...(videoProblem ? { videoProblem } : {}),
  })
}

/** What file-type finds in the first bytes stored at `key`. */
async function sniff(key: string): Promise<string | undefined> {
  return (await fileTypeFromBuffer(await useMediaStore().readRange(key, 0, SNIFF_BYTES - 1)))?.mime
}

/**
 * What happens at confirm, in order: a multipart upload's parts are checked and joined; a single
 * PUT's bytes move from staging to their served key, so that its signed URL can no longer change
 * them; the stored object must be there (else 409, the guest may send it again), of the declared
 * size and, by its first bytes, of the declared kind (else it goes with its record: 422); the
 * declared hash must be the bytes' where the driver can prove it (duplicates.ts); a video's
 * length is read from its bytes and kept, and one too long is refused (video-duration.ts); a video's
 * recorded position is blanked (phones write it into the file; the upload page blanks it before
 * sending, but an old page, a script or a file the page could not read may still carry it), and a
 * video with no readable box structure is refused (422); a video's codec, read with its length,
 * decides whether it waits for a display copy (display-copy.ts); a video's poster frame is kept if it is a
 * real JPEG; a photo's public images made by the phone are kept if they pass the check
 * (phone-images.ts), which makes it public at once; the bytes are made durable; the record is
 * confirmed, approved at once under post-moderation; a photo without accepted images from the
 * phone is scheduled for derivation. All of it under the upload's claim (claim.ts): an abort
 * racing it loses, never half-wins.
 */
async function confirmClaimed(claimed: UploadRow): Promise<ConfirmOutcome> {
  const { id } = claimed
  let row = claimed
  const store = useMediaStore()
  // Moved before it is checked: what is verified below is what is served, whatever the URL sends next.
  let location: VideoLocationOutcome | null = null
  if (row.multipartUploadId) {
    row = await completeParts(row)
  }
  else {
    // A driver whose move is a copy blanks a video's location in that copy (one copy, not two).
    const promoted = await store.promote(row.storageKey, row.kind === 'video' ? { contentType: row.contentType } : undefined)
    if (!promoted.found) throw apiError(409, ErrorCode.OBJECT_MISSING, 'Object missing')
    if (promoted.location && !promoted.location.ok) {
      await refuse(row, promoted.size, await sniff(stagedKeyOf(row.storageKey)), promoted.location.reason)
    }
    location = promoted.location
  }

  const object = await store.head(row.storageKey)
  if (!object) throw apiError(409, ErrorCode.OBJECT_MISSING, 'Object missing')
  const detectedType = await sniff(row.storageKey)
  if (object.size !== row.size || !sniffedKindMatches(row, detectedType)) await refuse(row, object.size, detectedType)
  // Before anything below rewrites the bytes (the location blanked in place). A driver that blanked
  // a video's location in the move has rewritten them already: then the declared hash cannot be
  // proved, and is not kept.
  const rewritten = location?.ok === true && location.removed.length > 0
  const contentHash = rewritten ? null : await verifiedDeclaredHash(row)
  if (row.kind === 'video' && !location) {
    location = await store.blankVideoLocation(row.storageKey, row.contentType, object.size)
    if (!location.ok) await refuse(row, object.size, detectedType, location.reason)
  }

  // A video's or spoken message's length is the bytes' (the declared one only passed init).
  let { durationSec } = row
  if (row.kind === 'video') durationSec = await checkVideoDuration(row, location?.ok ? location.durationSec : null)
  // A kind another feature owns checks its own bytes (a spoken guestbook message: its tags and
  // position blanked, its stream and duration checked).
  const kindSteps = stepsOfKind(row.kind)
  if (kindSteps) {
    const checked = await kindSteps.atConfirm(row, object.size)
    if ('problem' in checked) await refuse(row, object.size, detectedType, checked.problem)
    else durationSec = checked.durationSec
  }

  // Whether the public may play the original, or a display copy must be made first (display-copy.ts).
  const videoCodec = row.kind === 'video' && location?.ok ? location.videoCodec ?? null : null
  let display = row.kind === 'video' ? displayAtConfirm(videoCodec) : null
  const phoneCopy = display === 'poster-only' && displayCopyMaker() === 'phone' ? await acceptPhoneCopy(row, durationSec) : null
  if (phoneCopy?.accepted) display = 'copy'
  const posterKey = await acceptPoster(row)
  const phoneImages = await acceptPhoneImages(row)
  await store.persist(row.storageKey)
  const { moderation } = await getEventSettings()
  const now = new Date()
  const [confirmed] = await useDb().update(uploads)
    .set({ status: moderation === 'post' ? 'approved' : 'pending', posterKey, videoCodec, display, displayCopyKey: phoneCopy?.accepted ? phoneCopy.key : null, contentHash, durationSec, ...phoneImagesColumns(phoneImages, now), confirmedAt: now, updatedAt: now, claim: null, claimedUntil: null })
    .where(heldBy(claimed))
    .returning({ status: uploads.status, kind: uploads.kind, author: uploads.author })
  if (!confirmed) {
    // Our claim lapsed and another confirm finished first (same answer as theirs), or the upload was swept.
    const winner = await findUpload(id)
    if (!winner.confirmedAt) throw notFound()
    return confirmedBefore(winner)
  }
  if (!phoneImages?.accepted) scheduleDerivation(id)
  announceNewItem({ id, kind: confirmed.kind, author: confirmed.author, status: confirmed.status })
  return { answer: { id, status: confirmed.status, ...(phoneCopy && !phoneCopy.accepted ? { phoneCopyRefusal: phoneCopy.refusal } : {}) }, row: null }
}

/**
 * A confirm's result, and the row when the upload had been confirmed before (by an earlier call,
 * another instance or a lapsed claim's rival): then only its sender learns where it stands now.
 */
interface ConfirmOutcome {
  answer: ConfirmUploadResponse
  row: UploadRow | null
}

const confirmedBefore = (row: UploadRow): ConfirmOutcome => ({ answer: { id: row.id, status: row.status }, row })

/** How long a confirm waits for another instance's confirm of the same upload to finish. */
const WAIT_FOR_OTHER_CONFIRM_MS = 30_000

async function verifyAndConfirm(id: string): Promise<ConfirmOutcome> {
  const deadline = Date.now() + WAIT_FOR_OTHER_CONFIRM_MS
  for (;;) {
    // Nearly every confirm finds its upload open and unclaimed: the claim is tried first, and the
    // record read only when the claim is not given (gone, confirmed before, or someone else's).
    const claimed = await claimUpload(id, 'confirm')
    if (claimed) {
      try {
        return await confirmClaimed(claimed)
      }
      catch (error) {
        // After a refusal (409, 503) the guest may try again at once (a no-op once discarded: 422).
        await releaseClaim(claimed)
        throw error
      }
    }
    const row = await findUpload(id)
    if (row.confirmedAt) return confirmedBefore(row)
    // Being aborted: gone for this confirm (the contract's answer for an aborted upload).
    if (liveClaim(row) === 'abort') throw notFound()
    // Its claim lapsed or was let go since: claimed at the next pass.
    if (!liveClaim(row)) continue
    // Another instance is confirming it: its answer is ours.
    if (Date.now() > deadline) throw new StorageUnavailableError(new Error('another confirm of this upload has not finished'))
    await new Promise(resolve => setTimeout(resolve, 200))
  }
}

// Concurrent confirms of one upload in this process share one run: exactly one completes the
// multipart upload and writes; the others get its answer (or its error).
const inFlight = new Map<string, Promise<ConfirmOutcome>>()

/**
 * Confirms upload `id`. Confirming again answers the same result, but only the sending device
 * (its undo token, `X-Undo-Token`) learns the upload's status now: anyone else holding the id gets
 * what a confirm under the event's moderation mode gives (approved, or pending), the same for
 * every upload, so a confirm is no oracle of a moderation decision.
 */
export async function confirmUpload(id: string, undoToken?: string): Promise<ConfirmUploadResponse> {
  let running = inFlight.get(id)
  if (!running) {
    running = verifyAndConfirm(id).finally(() => inFlight.delete(id))
    inFlight.set(id, running)
  }
  const { answer, row } = await running
  if (!row || tokenMatches(row, undoToken)) return answer
  const { moderation } = await getEventSettings()
  return { id, status: moderation === 'post' ? 'approved' : 'pending' }
}
