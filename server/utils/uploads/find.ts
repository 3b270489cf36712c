import { eq } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'

/** An upload's record by id, confirmed or not, or 404. */
export async function findUpload(id: string): Promise<UploadRow> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row) throw notFound()
  return row
}
