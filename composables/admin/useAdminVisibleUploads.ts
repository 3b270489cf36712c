import { useEventListener, useMutationObserver } from '@vueuse/core'
import type { ShallowRef } from 'vue'

/** Share of an upload that must be in the viewport to count: all of it, give or take rounding. */
const WHOLE = 0.995

/**
 * The uploads wholly on screen, in the order shown: what "approve what is on screen" approves,
 * so that nothing the admin has not seen is approved. An IntersectionObserver says which uploads
 * are wholly inside the viewport (no layout read for the others); of those, one that the sticky
 * toolbar (and the header above it) covers, even in part, is not on screen: it is checked against
 * the toolbar's bottom edge, again at each scroll. `grid` holds the uploads
 * (`[data-testid=admin-upload][data-id]`), `toolbar` is the sticky bar, `order` the ids as shown.
 */
export function useAdminVisibleUploads(
  grid: Readonly<ShallowRef<HTMLElement | null>>,
  toolbar: Readonly<ShallowRef<HTMLElement | null>>,
  order: () => string[],
) {
  /** Uploads wholly inside the viewport, by id, with their element. */
  const inViewport = new Map<string, HTMLElement>()
  const whole = shallowRef(new Set<string>())
  const ids = computed(() => order().filter(id => whole.value.has(id)))
  let observer: IntersectionObserver | null = null
  let frame = 0

  /** Of the uploads in the viewport, those below the toolbar's bottom edge. */
  function recount() {
    frame = 0
    const covered = Math.max(0, toolbar.value?.getBoundingClientRect().bottom ?? 0)
    const next = new Set<string>()
    for (const [id, element] of inViewport) {
      if (element.getBoundingClientRect().top >= covered - 0.5) next.add(id)
    }
    const same = next.size === whole.value.size && [...next].every(id => whole.value.has(id))
    if (!same) whole.value = next
  }

  function recountSoon() {
    if (!frame) frame = requestAnimationFrame(recount)
  }

  function onEntries(entries: IntersectionObserverEntry[]) {
    for (const entry of entries) {
      const element = entry.target as HTMLElement
      const id = element.dataset.id
      if (!id) continue
      if (entry.isIntersecting && entry.intersectionRatio >= WHOLE) inViewport.set(id, element)
      else inViewport.delete(id)
    }
    recount()
  }

  /** (Re)watches every upload shown. */
  function observe() {
    if (!grid.value || typeof IntersectionObserver === 'undefined') return
    observer ??= new IntersectionObserver(onEntries, { threshold: [0, WHOLE, 1] })
    observer.disconnect()
    inViewport.clear()
    recount()
    for (const element of grid.value.querySelectorAll<HTMLElement>('[data-testid=admin-upload][data-id]')) observer.observe(element)
  }

  onMounted(observe)
  // Uploads come and go (polls, actions, the other view): each new element is watched.
  useMutationObserver(grid, observe, { childList: true })
  // Scrolling moves uploads under the sticky toolbar without leaving the viewport.
  useEventListener(window, 'scroll', recountSoon, { passive: true })
  useEventListener(window, 'resize', recountSoon, { passive: true })
  onBeforeUnmount(() => {
    observer?.disconnect()
    if (frame) cancelAnimationFrame(frame)
  })

  return { ids }
}
