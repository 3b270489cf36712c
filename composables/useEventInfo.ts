import type { PublicEventInfo } from '#shared/schemas/event'

/**
 * The public event configuration (`GET /api/event`), fetched once per page load and shared by
 * every component under one key, so the server render and the upload checks read the same answer.
 */
export function useEventInfo() {
  return useFetch<PublicEventInfo>('/api/event', { key: 'event-info', dedupe: 'defer' })
}
