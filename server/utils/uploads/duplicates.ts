import { and, eq, sql, type SQL } from 'drizzle-orm'
import { uploads, type UploadRow, PUBLIC_UPLOAD } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import type { DuplicateUploadResponse, InitUploadBody } from '#shared/schemas/upload'
import { builtOnce, type Db } from '../db'
import { apiError } from '../http/errors'
import { useMediaStore } from '../storage/use-media-store'
import { discardUpload } from './abort'

// Built once (every init with a hash asks). `confirmed_at IS NOT NULL` (in PUBLIC_UPLOAD) spelled
// out, so that SQLite serves this from the partial index.
const copyQuery = (db: Db, ...also: SQL[]) => db.select({ id: uploads.id, kind: uploads.kind }).from(uploads)
  .where(and(eq(uploads.contentHash, sql.placeholder('hash')), PUBLIC_UPLOAD, eq(uploads.size, sql.placeholder('size')), ...also))
  .limit(1).prepare()
const sentCopy = builtOnce(db => copyQuery(db))
const sentCopyOf = builtOnce(db => copyQuery(db, eq(uploads.guestId, sql.placeholder('sentBy'))))

/**
 * The same bytes are stored once per event: a guest re-sending a photo (picked twice, or again
 * after a failure) is told it is there already. Only public uploads count (confirmed and
 * approved): anyone holding the bytes may ask, so the answer must tell nothing the gallery does not
 * already show. A rejected copy, or one waiting for the couple, answers as if new (and is stored
 * again); deleted, aborted and swept ones are gone from the table.
 *
 * `sentBy`: the asking device's guest id when the gallery is not open to it (closed, or behind a
 * PIN it has not typed): then only its own earlier uploads count, since "already sent" would tell a
 * stranger holding the bytes what the gallery keeps from them. Null when the gallery is open to it.
 */
export async function findSentCopy(body: Pick<InitUploadBody, 'hash' | 'size'>, sentBy: string | null = null): Promise<DuplicateUploadResponse | null> {
  if (!body.hash) return null
  const earlier = sentBy === null
    ? await sentCopy().get({ hash: body.hash, size: body.size })
    : await sentCopyOf().get({ hash: body.hash, size: body.size, sentBy })
  return earlier ? { id: earlier.id, kind: earlier.kind, duplicate: true } : null
}

/**
 * The hash init declared must be the stored bytes' before anything on the server rewrites them
 * (a video's location is blanked next), or a false one (the invitation's, say) would make every
 * later real copy answer "already sent" and never be stored. Proved by the driver (`sha256Of`: a
 * read of the file on the local disk, a streamed read of the object on S3 up to a size); a hash it
 * cannot prove is not kept, so the upload never becomes the original others are matched against.
 * Answers the hash to record: the verified one, or null.
 */
export async function verifiedDeclaredHash(row: UploadRow): Promise<string | null> {
  if (!row.contentHash) return null
  const storedHash = await useMediaStore().sha256Of(row.storageKey, row.size)
  if (storedHash === null) return null
  if (storedHash === row.contentHash) return storedHash
  await discardUpload(row)
  throw apiError(422, ErrorCode.CONTENT_MISMATCH, 'Content mismatch', { declaredHash: row.contentHash, storedHash })
}
