import { and, eq, isNull } from 'drizzle-orm'
import webPush from 'web-push'
import { notifyState, type NotifyDelivery } from '../../../db/schema'
import type { NotifyLastStatus } from '#shared/schemas/notify'
import { useDb } from '../db'

const STATE_ID = 1

/**
 * The server's VAPID key pair (base64url), made at first use and kept: every subscription a
 * browser made is bound to this public key, so a new pair would silence them all.
 */
export async function vapidKeys(): Promise<{ publicKey: string, privateKey: string }> {
  const db = useDb()
  let row = await db.select().from(notifyState).where(eq(notifyState.id, STATE_ID)).get()
  if (!row?.vapidPublicKey || !row.vapidPrivateKey) {
    const made = webPush.generateVAPIDKeys()
    // A concurrent first use keeps the winner's pair.
    await db.insert(notifyState).values({ id: STATE_ID, vapidPublicKey: made.publicKey, vapidPrivateKey: made.privateKey })
      .onConflictDoNothing()
    // The row may exist already, made by a delivery's status.
    await db.update(notifyState).set({ vapidPublicKey: made.publicKey, vapidPrivateKey: made.privateKey })
      .where(and(eq(notifyState.id, STATE_ID), isNull(notifyState.vapidPublicKey)))
    row = await db.select().from(notifyState).where(eq(notifyState.id, STATE_ID)).get()
  }
  return { publicKey: row!.vapidPublicKey!, privateKey: row!.vapidPrivateKey! }
}

export async function readLastStatus(): Promise<NotifyLastStatus | null> {
  const row = await useDb().select({ lastStatus: notifyState.lastStatus }).from(notifyState).where(eq(notifyState.id, STATE_ID)).get()
  return row?.lastStatus ?? null
}

export async function recordLastStatus(delivery: NotifyDelivery): Promise<void> {
  await useDb().insert(notifyState).values({ id: STATE_ID, lastStatus: delivery })
    .onConflictDoUpdate({ target: notifyState.id, set: { lastStatus: delivery } })
}
