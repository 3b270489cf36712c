import { sql } from 'drizzle-orm'
import type { challenges, moments } from '../../../db/schema'
import type { DbTransaction } from '../db'
import { invalidRequest } from '../http/errors'

/** A list the couple orders by hand: an `id`, a `position` and an `updated_at` column each. */
type OrderedTable = typeof moments | typeof challenges

/** Where a new entry goes: after the last one. */
export async function nextPosition(tx: DbTransaction, table: OrderedTable): Promise<number> {
  const last = await tx.get<{ position: number | null }>(sql`SELECT max("position") AS "position" FROM ${table}`)
  return (last?.position ?? -1) + 1
}

/**
 * Puts the entries in the order of `ids`, which must name every entry exactly once: a list sent
 * from a stale page would otherwise drop or repeat one (400 INVALID_REQUEST, nothing moves).
 */
export async function applyOrder(tx: DbTransaction, table: OrderedTable, ids: string[]): Promise<void> {
  const existing = await tx.all<{ id: string }>(sql`SELECT "id" FROM ${table}`)
  const known = new Set(existing.map(row => row.id))
  if (new Set(ids).size !== ids.length || ids.length !== known.size || ids.some(id => !known.has(id))) {
    throw invalidRequest([{ path: ['ids'], code: 'custom', message: 'ids must list every entry once' }])
  }
  const now = Date.now()
  for (const [position, id] of ids.entries()) {
    await tx.run(sql`UPDATE ${table} SET "position" = ${position}, "updated_at" = ${now} WHERE "id" = ${id}`)
  }
}
