import { asc, eq } from 'drizzle-orm'
import { challenges, uploads, type ChallengeRow } from '../../../db/schema'
import type { AdminChallenge, AdminChallengeList, ChallengeCreate, ChallengePatch } from '#shared/schemas/challenges'
import { useDb } from '../db'
import { notFound } from '../http/errors'
import { applyOrder, nextPosition } from '../ordering/positions'
import { newId } from '../storage/keys'

export function toAdminChallenge(row: ChallengeRow): AdminChallenge {
  return { id: row.id, text: row.text, position: row.position, active: row.active }
}

export async function listChallenges(): Promise<AdminChallengeList> {
  const rows = await useDb().select().from(challenges).orderBy(asc(challenges.position), asc(challenges.id))
  return { items: rows.map(toAdminChallenge) }
}

/** A new challenge goes last in the couple's order, switched on. */
export async function createChallenge(body: ChallengeCreate): Promise<AdminChallenge> {
  const now = new Date()
  const row = await useDb().transaction(async (tx) => {
    const [created] = await tx.insert(challenges).values({
      id: newId(), text: body.text, position: await nextPosition(tx, challenges), active: true, createdAt: now, updatedAt: now,
    }).returning()
    return created!
  })
  return toAdminChallenge(row)
}

export async function patchChallenge(id: string, patch: ChallengePatch): Promise<AdminChallenge> {
  const [row] = await useDb().update(challenges).set({ ...patch, updatedAt: new Date() })
    .where(eq(challenges.id, id)).returning()
  if (!row) throw notFound()
  return toAdminChallenge(row)
}

/** Its answers stay, answering nothing (same transaction: no upload points at nothing). */
export async function deleteChallenge(id: string): Promise<void> {
  await useDb().transaction(async (tx) => {
    const [deleted] = await tx.delete(challenges).where(eq(challenges.id, id)).returning({ id: challenges.id })
    if (!deleted) throw notFound()
    await tx.update(uploads).set({ challengeId: null, updatedAt: new Date() }).where(eq(uploads.challengeId, id))
  })
}

export async function reorderChallenges(ids: string[]): Promise<AdminChallengeList> {
  await useDb().transaction(tx => applyOrder(tx, challenges, ids))
  return listChallenges()
}
