import { useDocumentVisibility } from '@vueuse/core'

/**
 * Runs `task` every `intervalMs` while `enabled` and the tab is visible; never two at once. A tab
 * that comes back into view refreshes at once, so a moderator who switched away sees the present,
 * and a hidden tab costs the server nothing.
 */
export function usePolling(task: () => Promise<unknown>, intervalMs: number, enabled: MaybeRefOrGetter<boolean> = true) {
  // A server render polls nothing: its timers would outlive the request.
  if (import.meta.server) return { refreshNow: () => Promise.resolve() }
  const visibility = useDocumentVisibility()
  const active = computed(() => toValue(enabled) && visibility.value !== 'hidden')
  let timer: ReturnType<typeof setTimeout> | undefined
  let running = false
  let stopped = false

  function schedule() {
    clearTimeout(timer)
    if (!stopped && active.value) timer = setTimeout(tick, intervalMs)
  }

  async function tick() {
    if (running || stopped) return
    running = true
    try {
      await task()
    }
    catch {
      // The task shows its own errors; polling just goes on.
    }
    finally {
      running = false
      schedule()
    }
  }

  watch(active, (now) => {
    if (now) void tick()
    else clearTimeout(timer)
  })
  schedule()

  onScopeDispose(() => {
    stopped = true
    clearTimeout(timer)
  })

  return { refreshNow: tick }
}
