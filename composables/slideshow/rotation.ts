import type { GalleryItem } from '#shared/schemas/gallery'

/**
 * What the venue screen shows next, as plain data (no timers, no Vue), so it can be reasoned
 * about and tested on its own.
 *
 * - The pool is the newest approved items, at most `max` of them, replaced whole by each poll:
 *   an item rejected or deleted is simply no longer in the next snapshot.
 * - Items that were not in the previous snapshot jump the queue, newest first.
 * - Otherwise the rotation walks the pool from newest to oldest and starts again.
 * Everything is bounded by `max`: hours of polling do not grow it.
 */
export function createRotation(max = 300) {
  let pool: GalleryItem[] = []
  let priority: string[] = []
  let lastRotationId: string | null = null
  let lastRotationIndex = -1
  let initialised = false

  function byId(id: string): GalleryItem | undefined {
    return pool.find(item => item.id === id)
  }

  return {
    /** Replaces the pool with a fresh snapshot; answers the ids that left it. */
    update(snapshot: GalleryItem[]): { added: string[], removed: Set<string> } {
      const next = snapshot.slice(0, max)
      const nextIds = new Set(next.map(item => item.id))
      const previousIds = new Set(pool.map(item => item.id))
      const removed = new Set([...previousIds].filter(id => !nextIds.has(id)))
      // The first snapshot is what the screen starts with, not news.
      const added = initialised ? next.filter(item => !previousIds.has(item.id)).map(item => item.id) : []
      priority = [...added, ...priority.filter(id => nextIds.has(id) && !added.includes(id))].slice(0, max)
      pool = next
      initialised = true
      return { added, removed }
    },

    /**
     * The next item to show, never the one on screen when there is any other; null when the pool
     * holds nothing `usable` (offline: only items whose image is saved).
     */
    next(currentId: string | null = null, usable: (item: GalleryItem) => boolean = () => true): GalleryItem | null {
      // Unusable news waits in the queue for its image (or the network).
      for (let at = 0; at < priority.length;) {
        const item = byId(priority[at]!)
        if (item && !usable(item)) {
          at++
          continue
        }
        priority.splice(at, 1)
        if (item && (item.id !== currentId || pool.length === 1)) return item
      }
      if (!pool.length) return null
      // Start at the newest; else after the last one shown; if that one left, from where it stood.
      let index = -1
      if (lastRotationId !== null) {
        index = pool.findIndex(item => item.id === lastRotationId)
        if (index === -1) index = Math.min(lastRotationIndex, pool.length) - 1
      }
      let stay: GalleryItem | null = null
      for (let step = 1; step <= pool.length; step++) {
        const candidate = pool[(index + step + pool.length) % pool.length]!
        if (!usable(candidate)) continue
        if (candidate.id === currentId) {
          stay = candidate
          continue
        }
        lastRotationIndex = pool.indexOf(candidate)
        lastRotationId = candidate.id
        return candidate
      }
      // The one on screen is the only one that can show: it stays.
      return stay
    },

    has(id: string): boolean {
      return pool.some(item => item.id === id)
    },

    get size(): number {
      return pool.length
    },

    /** For tests and the memory check: what is being held. */
    get held(): { pool: number, priority: number } {
      return { pool: pool.length, priority: priority.length }
    },
  }
}
