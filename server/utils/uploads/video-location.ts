import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import type { UploadRow } from '../../../db/schema'
import type { LocationScanFailure } from '#shared/media/video-location'
import { stripVideoLocationInFile } from '../video-location/local-file'
import { stripVideoLocationInS3, type S3Bucket } from '../video-location/s3-object'
import type { LocalMediaStore } from '../storage/local-driver'
import { StorageUnavailableError } from '../storage/media-store'

/*
 * Phones write where a video was recorded into the file (`©xyz`, 3GPP `loci`, Apple's location
 * keys, XMP GPS). The upload page blanks them before sending; an old page, a script or a file the
 * page could not read may still carry them. Confirm blanks what is left, in place and without
 * re-encoding (shared/media/video-location.ts finds the boxes, same length, media untouched), so a
 * video answers 200 only once what the public will download carries no position.
 */

export type VideoLocationOutcome = { ok: true, removed: string[] } | { ok: false, reason: LocationScanFailure }

function s3Bucket(): S3Bucket {
  const store = useMediaStore() as ReturnType<typeof useMediaStore> & { client: S3Client }
  return { client: store.client, bucket: useConfig().S3_BUCKET! }
}

/** The SDK's own errors, as the store's other calls give them: storage down is a 503, not a 500. */
async function asStorageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  }
  catch (error) {
    if (error instanceof StorageUnavailableError) throw error
    markStorageDown()
    throw new StorageUnavailableError(error)
  }
}

/**
 * S3, one PUT: the move out of staging and the blanking in one server-side copy (a plain
 * CopyObject when there is nothing to blank), then the staged object goes. Every read and the
 * copy are tied to the staged object's ETag, so a PUT racing this confirm fails it rather than
 * slip unscanned bytes through. Null when nothing is staged (an earlier confirm moved it); nothing
 * is moved when the file has no readable structure.
 */
export async function promoteStagedVideo(row: UploadRow, stagedKey: string): Promise<(VideoLocationOutcome & { size: number }) | null> {
  const s3 = s3Bucket()
  const head = await asStorageCall(async () => {
    try {
      return await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: stagedKey }))
    }
    catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null
      throw error
    }
  })
  if (!head) return null
  const size = head.ContentLength ?? 0
  const result = await asStorageCall(() => stripVideoLocationInS3(s3, {
    sourceKey: stagedKey, destinationKey: row.storageKey, size, contentType: row.contentType, etag: head.ETag,
  }))
  if (!result.ok) return { ...result, size }
  await useMediaStore().delete(stagedKey)
  return { ok: true, removed: result.removed, size }
}

/**
 * Where the video is already served (joined parts, a local file): the local driver writes the
 * blanked boxes at their offsets (confirm syncs the file next); S3 rewrites the object onto
 * itself, copying untouched ranges inside the storage, and only when there is something to blank.
 */
export async function blankServedVideo(row: UploadRow, size: number): Promise<VideoLocationOutcome> {
  const store = useMediaStore()
  if (store.driver === 'local') {
    const result = await stripVideoLocationInFile((store as LocalMediaStore).pathOf(row.storageKey), row.contentType)
    return result.ok ? { ok: true, removed: result.removed } : result
  }
  const result = await asStorageCall(() => stripVideoLocationInS3(s3Bucket(), { sourceKey: row.storageKey, size, contentType: row.contentType }))
  return result.ok ? { ok: true, removed: result.removed } : result
}
