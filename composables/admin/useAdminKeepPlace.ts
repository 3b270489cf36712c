import type { ShallowRef } from 'vue'

/**
 * Where the admin was before a bulk action: the page's scroll and the upload to focus next (the
 * first one on screen after the first acted on). Uploads leaving the list, or the bulk bar's
 * buttons vanishing with the selection, must not throw the view or the focus back to the top.
 * `grid` holds the uploads (`[data-testid=admin-upload][data-id]`), `order` their ids as shown.
 */
export function useAdminKeepPlace(grid: Readonly<ShallowRef<HTMLElement | null>>, order: () => string[]) {
  return function keepPlace(ids: string[]) {
    const scrollY = window.scrollY
    const acted = new Set(ids)
    const shown = order()
    const first = shown.findIndex(id => acted.has(id))
    const candidates = first === -1 ? [] : [...shown.slice(first), ...shown.slice(0, first).reverse()].filter(id => !acted.has(id))
    return {
      async restore() {
        await nextTick()
        const active = document.activeElement
        const lost = !active || active === document.body || !document.body.contains(active)
        if (lost || grid.value?.contains(active) === false) {
          const next = candidates.map(id => grid.value?.querySelector<HTMLElement>(`[data-testid=admin-upload][data-id="${id}"]`)).find(Boolean)
          if (lost) (next ?? grid.value)?.focus({ preventScroll: true })
        }
        const max = document.documentElement.scrollHeight - window.innerHeight
        if (Math.abs(window.scrollY - scrollY) > 1) window.scrollTo({ top: Math.min(scrollY, max), behavior: 'instant' })
      },
    }
  }
}
