import { and, eq } from 'drizzle-orm'
import { challenges } from '../../../db/schema'
import { useDb } from '../db'
import { invalidRequest } from '../http/errors'

/**
 * The challenge an upload answers: an active one, or the request is refused (400), so that a
 * phone whose queued file names a challenge switched off meanwhile sends it again without.
 */
export async function challengeAtInit(challengeId: string | undefined): Promise<string | null> {
  if (!challengeId) return null
  const row = await useDb().select({ id: challenges.id }).from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.active, true))).get()
  if (!row) throw invalidRequest([{ path: ['challengeId'], code: 'custom', message: 'Unknown or inactive challenge' }])
  return row.id
}
