import { computed, onMounted, ref, type Ref } from 'vue'
import type { EventLimits } from '#shared/media/checks'
import type { PublicEventInfo } from '#shared/schemas/event'
import { EVENT_LIMITS_KEY } from '~/app-utils/storage-keys'

/** Until the event configuration is known the server's own checks are the only ones. */
const OPEN_LIMITS: EventLimits = { maxFileSizeBytes: Number.MAX_SAFE_INTEGER, allowVideos: true, maxVideoDurationSec: Number.MAX_SAFE_INTEGER }

/**
 * The file limits the page checks picked files against: the live configuration, else the one
 * seen on an earlier visit (the page may open offline), else none. `known`: either of the first two.
 */
export function useEventLimits(event: Ref<PublicEventInfo | undefined>) {
  const stored = ref<EventLimits | null>(null)
  const limits = computed<EventLimits>(() => {
    const info = event.value
    if (info) return { maxFileSizeBytes: info.maxFileSizeBytes, allowVideos: info.allowVideos, maxVideoDurationSec: info.maxVideoDurationSec }
    return stored.value ?? OPEN_LIMITS
  })
  const known = computed(() => limits.value !== OPEN_LIMITS)

  onMounted(() => {
    try {
      if (event.value) localStorage.setItem(EVENT_LIMITS_KEY, JSON.stringify(limits.value))
      else stored.value = JSON.parse(localStorage.getItem(EVENT_LIMITS_KEY) ?? 'null')
    }
    catch { /* storage disabled: nothing remembered */ }
  })
  return { limits, known }
}
