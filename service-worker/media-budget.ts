import type { WorkboxPlugin } from 'workbox-core/types'

/**
 * A byte bound for a cache, beside Workbox's count bound (ExpirationPlugin counts entries only):
 * when the kept bodies pass `maxBytes`, the earliest kept go first until they fit. Sizes come
 * from `content-length` (our media always send it); an opaque answer from a bucket on another
 * origin shows none and counts as `opaqueBytes`. The tally is read from the cache at the worker's
 * start and whenever it seems over the bound (other code deletes entries too).
 */
export function byteBudget(maxBytes: number, opaqueBytes = 512 * 1024): WorkboxPlugin {
  let sizes: Map<string, number> | undefined

  const sizeOf = (response: Response) => Number(response.headers.get('content-length')) || opaqueBytes

  async function known(cache: Cache): Promise<Map<string, number>> {
    if (sizes) return sizes
    const found = new Map<string, number>()
    for (const request of await cache.keys()) {
      const response = await cache.match(request)
      if (response) found.set(request.url, sizeOf(response))
    }
    sizes = found
    return found
  }

  return {
    cacheDidUpdate: async ({ cacheName, request, newResponse }) => {
      const cache = await caches.open(cacheName)
      let entries = await known(cache)
      entries.set(request.url, sizeOf(newResponse))
      const sum = () => [...entries.values()].reduce((total, size) => total + size, 0)
      if (sum() <= maxBytes) return
      // Others delete entries too (the count bound, evictions): count again from the cache itself.
      sizes = undefined
      entries = await known(cache)
      let total = sum()
      // Cache keys come back in the order they were put: the earliest first.
      for (const kept of await cache.keys()) {
        if (total <= maxBytes || kept.url === request.url) break
        await cache.delete(kept)
        total -= entries.get(kept.url) ?? 0
        entries.delete(kept.url)
      }
    },
  }
}
