import { afterEach, describe, expect, it } from 'vitest'
import { byteBudget } from '../../../service-worker/media-budget'

/**
 * Node has no CacheStorage (a browser API): a Map-backed stand-in with the calls the plugin
 * makes, keys in the order they were put as a browser's are. The real cache runs in the browser
 * tests (tests/browser/kiosk-offline.test.ts).
 */
function fakeCaches() {
  const entries = new Map<string, Response>()
  const cache = {
    keys: async () => [...entries.keys()].map(url => new Request(url)),
    match: async (request: Request | string) => entries.get(typeof request === 'string' ? request : request.url),
    delete: async (request: Request | string) => entries.delete(typeof request === 'string' ? request : request.url),
    put: async (request: Request, response: Response) => void entries.set(request.url, response),
  }
  ;(globalThis as { caches?: unknown }).caches = { open: async () => cache }
  return { cache, entries }
}

afterEach(() => {
  delete (globalThis as { caches?: unknown }).caches
})

const sized = (bytes: number) => new Response('x', { headers: { 'content-length': String(bytes) } })

async function put(budget: ReturnType<typeof byteBudget>, cache: ReturnType<typeof fakeCaches>['cache'], url: string, response: Response) {
  const request = new Request(url)
  await cache.put(request, response)
  await budget.cacheDidUpdate!({ cacheName: 'media', request, newResponse: response, oldResponse: undefined, event: undefined as never, state: undefined })
}

describe('a cache bounded by bytes', () => {
  it('drops the earliest kept images once the bodies pass the bound, never the one just kept', async () => {
    const { cache, entries } = fakeCaches()
    const budget = byteBudget(100)
    await put(budget, cache, 'http://venue/media/a.jpg', sized(40))
    await put(budget, cache, 'http://venue/media/b.jpg', sized(40))
    expect([...entries.keys()]).toHaveLength(2)
    await put(budget, cache, 'http://venue/media/c.jpg', sized(40))
    expect([...entries.keys()]).toEqual(['http://venue/media/b.jpg', 'http://venue/media/c.jpg'])
    await put(budget, cache, 'http://venue/media/huge.jpg', sized(500))
    expect([...entries.keys()]).toEqual(['http://venue/media/huge.jpg'])
  })

  it('counts an opaque answer (no length) as a large image, and entries others deleted as gone', async () => {
    const { cache, entries } = fakeCaches()
    const budget = byteBudget(1000, 600)
    await put(budget, cache, 'http://venue/media/a.jpg', sized(300))
    entries.delete('http://venue/media/a.jpg')
    await put(budget, cache, 'https://bucket.example/b.jpg', new Response(null))
    await put(budget, cache, 'http://venue/media/c.jpg', sized(300))
    expect([...entries.keys()]).toEqual(['https://bucket.example/b.jpg', 'http://venue/media/c.jpg'])
  })
})
