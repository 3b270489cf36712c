import type { QueueItem } from './item'

/**
 * Files whose bytes were already sent, by this phone or anyone at the event: the row says
 * "Já enviada" and nothing is stored twice. The server knows by the hash init declares (it
 * answers with the earlier upload); a file picked twice here is caught before init, by the queue.
 */

/**
 * Hashes the bytes about to be sent, once per item: kept with the record, so a resumed upload
 * declares the same hash. Best effort: a file that cannot be hashed goes without one. `hash` is the
 * page's (file-hash.ts) or the service worker's, which can start no worker of its own.
 */
export async function fingerprint(item: QueueItem, bytes: Blob, persist: (item: QueueItem) => Promise<void>, hash: (bytes: Blob) => Promise<string>): Promise<void> {
  if (item.hash) return
  item.hash = await hash(bytes).catch(() => null)
  if (item.hash) await persist(item)
}

/** `uploadId`: the earlier upload the server answered with, or null for a copy caught on the phone. */
export function markDuplicate(item: QueueItem, uploadId: string | null): void {
  item.duplicate = true
  item.uploadId = uploadId
  item.uploadType = null
  // Never anyone's undo: the earlier upload is not this phone's to take back.
  item.undo = null
}

/**
 * Whether another file of this queue already sends, or sent, the same bytes. Two copies hashed at
 * the same time must not both see the other and both give up: the first asked claims the hash
 * (check and claim with no await between), and only a claim still alive (sending, or sent) counts.
 */
export function pickedTwiceCheck(items: () => readonly QueueItem[], running: ReadonlySet<string>) {
  const senders = new Map<string, string>()
  return (item: QueueItem): boolean => {
    const hash = item.hash
    if (!hash) return false
    const sent = (other: QueueItem) => other.key !== item.key && other.hash === hash && other.done && !other.duplicate
    const sender = items().find(other => other.key === senders.get(hash) && other.key !== item.key)
    if ((sender && running.has(sender.key)) || items().some(sent)) return true
    senders.set(hash, item.key)
    return false
  }
}
