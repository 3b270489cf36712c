import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'

/*
 * What the public may see of the event: an upload confirmed and approved (by the couple, or at
 * once under post-moderation). The gallery, the public counts, the export and the cover ask this
 * and only this. The data_versions triggers (db/migrations/0003) spell it again in SQL, where code
 * cannot reach; tests/unit/public-uploads.test.ts proves the two agree.
 */

/** In a query's WHERE. */
export const PUBLIC_UPLOAD = and(eq(uploads.status, 'approved'), isNotNull(uploads.confirmedAt))!

/** Of a row in hand. */
export function isPublicUpload(row: Pick<UploadRow, 'status' | 'confirmedAt'>): boolean {
  return row.status === 'approved' && row.confirmedAt !== null
}
