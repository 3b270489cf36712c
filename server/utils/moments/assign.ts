import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import { moments } from '../../../db/schema'
import { builtOnce, useDb, type Db, type DbTransaction } from '../db'
import { invalidRequest } from '../http/errors'

/** A moment the request names must exist: an unknown one is the caller's mistake (400), not a silent "none". */
export async function assertMomentExists(id: string, db: Db | DbTransaction = useDb()): Promise<void> {
  const row = await db.select({ id: moments.id }).from(moments).where(eq(moments.id, id)).get()
  if (!row) throw invalidRequest([{ path: ['momentId'], code: 'custom', message: 'Unknown moment' }])
}

/**
 * The moment an upload belongs to when it is sent: the one the guest chose, else the first by the
 * couple's order whose window [startsAt, endsAt) holds `takenAt`, else none. Decided once, here:
 * a window changed later moves nothing already sent.
 */
export async function momentAtInit(momentId: string | undefined, takenAt: Date | null): Promise<string | null> {
  if (momentId) {
    await assertMomentExists(momentId)
    return momentId
  }
  if (!takenAt) return null
  // In milliseconds, as stored: see storedValue.
  const found = await momentAround().get({ takenAt: takenAt.getTime() })
  return found?.id ?? null
}

// Built once: nearly every photo the page sends carries the time it was taken.
const momentAround = builtOnce(db => db.select({ id: moments.id }).from(moments).where(and(
  or(isNotNull(moments.startsAt), isNotNull(moments.endsAt)),
  or(isNull(moments.startsAt), lte(moments.startsAt, sql.placeholder('takenAt'))),
  or(isNull(moments.endsAt), gt(moments.endsAt, sql.placeholder('takenAt'))),
)).orderBy(asc(moments.position), asc(moments.id)).limit(1).prepare())
