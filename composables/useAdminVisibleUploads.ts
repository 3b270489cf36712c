import { useEventListener, useMutationObserver, useResizeObserver } from '@vueuse/core'
import type { ShallowRef } from 'vue'

/** Share of an upload that must be in view to count as on screen: all of it, give or take rounding. */
const WHOLE = 0.995

/**
 * The uploads wholly on screen, in the order shown: what "approve what is on screen" approves,
 * so that nothing the admin has not seen is approved. Counted by an IntersectionObserver (no
 * layout read while scrolling). The top of the viewport that the sticky header and toolbar cover
 * is not on screen: a card under them cannot be seen. `grid` holds the uploads
 * (`[data-testid=admin-upload][data-id]`), `toolbar` is the sticky bar, `order` the ids as shown.
 */
export function useAdminVisibleUploads(
  grid: Readonly<ShallowRef<HTMLElement | null>>,
  toolbar: Readonly<ShallowRef<HTMLElement | null>>,
  order: () => string[],
) {
  const whole = shallowRef(new Set<string>())
  const ids = computed(() => order().filter(id => whole.value.has(id)))
  let observer: IntersectionObserver | null = null
  let coveredTop = -1

  function onEntries(entries: IntersectionObserverEntry[]) {
    const next = new Set(whole.value)
    for (const entry of entries) {
      const id = (entry.target as HTMLElement).dataset.id
      if (!id) continue
      if (entry.isIntersecting && entry.intersectionRatio >= WHOLE) next.add(id)
      else next.delete(id)
    }
    whole.value = next
  }

  /** Where the toolbar's bottom edge sits once it sticks (its `top` plus its height). */
  function stuckBottom(): number {
    const bar = toolbar.value
    if (!bar) return 0
    return Math.ceil((Number.parseFloat(getComputedStyle(bar).top) || 0) + bar.offsetHeight)
  }

  /** (Re)watches every upload shown; a new observer when the covered band changed height. */
  function observe() {
    if (!grid.value || typeof IntersectionObserver === 'undefined') return
    const top = stuckBottom()
    if (!observer || top !== coveredTop) {
      observer?.disconnect()
      coveredTop = top
      observer = new IntersectionObserver(onEntries, { rootMargin: `-${top}px 0px 0px 0px`, threshold: [0, WHOLE, 1] })
    }
    else {
      observer.disconnect()
    }
    whole.value = new Set()
    for (const element of grid.value.querySelectorAll<HTMLElement>('[data-testid=admin-upload][data-id]')) observer.observe(element)
  }

  onMounted(observe)
  // Uploads come and go (polls, actions, the other view): each new element is watched.
  useMutationObserver(grid, observe, { childList: true })
  // The covered band changes with the toolbar's height or the header's (which sets the toolbar's `top`).
  const bandChanged = () => {
    if (stuckBottom() !== coveredTop) observe()
  }
  useResizeObserver(toolbar, bandChanged)
  useEventListener(window, 'scroll', bandChanged, { passive: true })
  useEventListener(window, 'resize', bandChanged, { passive: true })
  onBeforeUnmount(() => observer?.disconnect())

  return { ids }
}
