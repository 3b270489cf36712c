import { and, eq, isNotNull } from 'drizzle-orm'
import { uploads, type UploadRow } from '../../../db/schema'
import { useDb, type Db, type DbTransaction } from '../db'
import { notFound } from '../http/errors'

/** An upload's record by id, confirmed or not, or 404. */
export async function findUpload(id: string): Promise<UploadRow> {
  const row = await useDb().select().from(uploads).where(eq(uploads.id, id)).get()
  if (!row) throw notFound()
  return row
}

/** A confirmed upload, or 404: a record still being uploaded does not exist for admins or an undo. */
export async function findConfirmedUpload(id: string, db: Db | DbTransaction = useDb()): Promise<UploadRow> {
  const row = await db.select().from(uploads).where(and(eq(uploads.id, id), isNotNull(uploads.confirmedAt))).get()
  if (!row) throw notFound()
  return row
}
