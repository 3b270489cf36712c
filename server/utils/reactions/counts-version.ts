import type { DataVersions } from '../http/conditional'

/** The longest a heart or comment waits to reach the gallery's answer (docs/api.md, "Hearts and comments"). */
export const REACTIONS_REFRESH_MS = 1000

/**
 * The `reactions` counter as the gallery's tag sees it: the latest, but changed at most once per
 * `everyMs`. Hearts move the counter on every tap, and every move would make the shared gallery
 * answer again and send every polling phone a new body; held back like this, a party's hearts
 * cost one new answer a second at most, and a lone heart after a quiet spell shows at once (the
 * held value is taken up by the first request after the interval, so none is lost).
 */
export class CoalescedCounter {
  private adopted: { epoch: number, version: number, at: number } | undefined

  constructor(private readonly everyMs: number) {}

  seen(epoch: number, version: number, now: number): number {
    const kept = this.adopted
    if (!kept || kept.epoch !== epoch || (kept.version !== version && now - kept.at >= this.everyMs)) {
      this.adopted = { epoch, version, at: now }
    }
    return this.adopted!.version
  }
}

const gallery = new CoalescedCounter(REACTIONS_REFRESH_MS)

/** The versions for the gallery's tag: `reactions` coalesced as above, the rest as read. */
export function galleryVersions(versions: DataVersions, now = Date.now()): DataVersions {
  return { ...versions, reactions: gallery.seen(versions.epoch, versions.reactions, now) }
}
