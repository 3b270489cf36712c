import type { PublicEventInfo } from '#shared/schemas/event'

/**
 * The public event configuration (`GET /api/event`), asked once per navigation and shared by every
 * component under one key, so the server render and the upload checks read the same answer; the
 * server's answer travels to the browser in the payload, so hydration asks nothing. useState and
 * callOnce rather than useFetch: useAsyncData's machinery (pending, refresh, watch, cache) was
 * 5 KB of a guest's first load for a value nobody refreshes. An answer that does not come (offline)
 * leaves the last one known, or none, as useFetch's `data` would.
 */
export async function useEventInfo() {
  const data = useState<PublicEventInfo | undefined>('event-info', () => undefined)
  // On the server, the guest's own headers (cookies, language) go with the request, as useFetch sent them.
  const request = useRequestFetch()
  await callOnce('event-info', async () => {
    try {
      data.value = await request<PublicEventInfo>('/api/event')
    }
    catch {
      // Kept as it was: the pages read a missing event as "not known yet".
    }
  }, { mode: 'navigation' })
  return { data }
}
