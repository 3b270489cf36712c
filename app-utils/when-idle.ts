/** A phone that never idles (a busy first load) still runs the task by then. */
const IDLE_TIMEOUT_MS = 2000

/** Runs `task` once the browser idles (after the first paint, between frames), or after IDLE_TIMEOUT_MS. */
export function whenIdle(task: () => void): void {
  if (typeof window === 'undefined') return
  if ('requestIdleCallback' in window) window.requestIdleCallback(() => task(), { timeout: IDLE_TIMEOUT_MS })
  else setTimeout(task, 0)
}
