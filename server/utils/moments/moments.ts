import { and, asc, eq, ne } from 'drizzle-orm'
import { moments, uploads, type MomentRow } from '../../../db/schema'
import { ErrorCode } from '#shared/errors'
import { windowIsOrdered, type AdminMoment, type AdminMomentList, type MomentCreate, type MomentPatch } from '#shared/schemas/moments'
import { useDb, type DbTransaction } from '../db'
import { apiError, invalidRequest, notFound } from '../http/errors'
import { applyOrder, nextPosition } from '../ordering/positions'
import { newId } from '../storage/keys'

export function toAdminMoment(row: MomentRow): AdminMoment {
  return {
    id: row.id,
    name: row.name,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    position: row.position,
  }
}

const dateOf = (iso: string | null | undefined) => (iso ? new Date(iso) : null)

const momentExists = () => apiError(409, ErrorCode.MOMENT_EXISTS, 'Moment exists')

/** The name is checked here, in the writing transaction; the unique index catches a race past it. */
async function assertNameFree(tx: DbTransaction, name: string, exceptId?: string) {
  const taken = await tx.select({ id: moments.id }).from(moments)
    .where(and(eq(moments.name, name), exceptId ? ne(moments.id, exceptId) : undefined)).get()
  if (taken) throw momentExists()
}

function isUniqueViolation(error: unknown): boolean {
  return String((error as { message?: string })?.message ?? '').includes('UNIQUE constraint failed: moments.name')
}

async function writing<T>(work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  try {
    return await useDb().transaction(work)
  }
  catch (error) {
    if (isUniqueViolation(error) || isUniqueViolation((error as { cause?: unknown })?.cause)) throw momentExists()
    throw error
  }
}

export async function listMoments(): Promise<AdminMomentList> {
  const rows = await useDb().select().from(moments).orderBy(asc(moments.position), asc(moments.id))
  return { items: rows.map(toAdminMoment) }
}

/** A new moment goes last in the couple's order. */
export async function createMoment(body: MomentCreate): Promise<AdminMoment> {
  const now = new Date()
  const row = await writing(async (tx) => {
    await assertNameFree(tx, body.name)
    const position = await nextPosition(tx, moments)
    const [created] = await tx.insert(moments).values({
      id: newId(),
      name: body.name,
      startsAt: dateOf(body.startsAt),
      endsAt: dateOf(body.endsAt),
      position,
      createdAt: now,
      updatedAt: now,
    }).returning()
    return created!
  })
  return toAdminMoment(row)
}

/** Name and window; the window's order is checked on the merged result. Uploads already sent stay where they are. */
export async function patchMoment(id: string, patch: MomentPatch): Promise<AdminMoment> {
  const row = await writing(async (tx) => {
    const current = await tx.select().from(moments).where(eq(moments.id, id)).get()
    if (!current) throw notFound()
    const startsAt = patch.startsAt === undefined ? current.startsAt : dateOf(patch.startsAt)
    const endsAt = patch.endsAt === undefined ? current.endsAt : dateOf(patch.endsAt)
    if (!windowIsOrdered(startsAt?.toISOString(), endsAt?.toISOString())) {
      throw invalidRequest([{ path: ['endsAt'], code: 'custom', message: 'endsAt must be after startsAt' }])
    }
    const name = patch.name ?? current.name
    if (name !== current.name) await assertNameFree(tx, name, id)
    const [updated] = await tx.update(moments).set({ name, startsAt, endsAt, updatedAt: new Date() })
      .where(eq(moments.id, id)).returning()
    return updated!
  })
  return toAdminMoment(row)
}

/** Its uploads are left without a moment, in the same transaction (no upload points at nothing). */
export async function deleteMoment(id: string): Promise<void> {
  await useDb().transaction(async (tx) => {
    const [deleted] = await tx.delete(moments).where(eq(moments.id, id)).returning({ id: moments.id })
    if (!deleted) throw notFound()
    await tx.update(uploads).set({ momentId: null, updatedAt: new Date() }).where(eq(uploads.momentId, id))
  })
}

/** The new order names every moment exactly once (server/utils/ordering/positions.ts). */
export async function reorderMoments(ids: string[]): Promise<AdminMomentList> {
  await useDb().transaction(tx => applyOrder(tx, moments, ids))
  return listMoments()
}
