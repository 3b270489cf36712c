import { onBeforeUnmount, onMounted, watch, type Ref } from 'vue'

/**
 * Keeps the screen awake while `wanted` is true (the venue screen; a phone in the middle of an
 * upload). Browsers drop the lock whenever the page is hidden, so it is asked for again each time
 * the page becomes visible. Browsers without the API simply sleep as before.
 */
export function useWakeLock(wanted: Ref<boolean>) {
  let sentinel: WakeLockSentinel | null = null
  let requesting = false

  async function acquire() {
    if (!wanted.value || sentinel || requesting || document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return
    requesting = true
    try {
      sentinel = await navigator.wakeLock.request('screen')
      sentinel.addEventListener('release', () => {
        sentinel = null
      }, { once: true })
      if (!wanted.value) await release()
    }
    catch {
      // Refused (battery saver, no permission): nothing else to do.
    }
    finally {
      requesting = false
    }
  }

  async function release() {
    const current = sentinel
    sentinel = null
    await current?.release().catch(() => undefined)
  }

  const onVisibility = () => {
    if (document.visibilityState === 'visible') void acquire()
  }

  onMounted(() => {
    document.addEventListener('visibilitychange', onVisibility)
    void acquire()
  })
  onBeforeUnmount(() => {
    document.removeEventListener('visibilitychange', onVisibility)
    void release()
  })
  watch(wanted, (value) => {
    if (value) void acquire()
    else void release()
  })
}
