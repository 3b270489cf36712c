/** The items (uploads, messages) ticked for a bulk action. */
export function useAdminSelection() {
  const selected = ref(new Set<string>())
  /** The last item ticked or unticked by hand: one end of a range. */
  const anchor = ref<string | null>(null)
  /** "Select range" is on: the next tick takes everything from the last ticked item to it. */
  const ranging = ref(false)

  const count = computed(() => selected.value.size)
  const ids = computed(() => [...selected.value])

  function isSelected(id: string) {
    return selected.value.has(id)
  }

  function toggle(id: string, on = !selected.value.has(id)) {
    const next = new Set(selected.value)
    if (on) next.add(id)
    else next.delete(id)
    selected.value = next
    anchor.value = id
  }

  /**
   * Selects every upload from the anchor to `id`, both included, in the order shown (`order`).
   * Without an anchor still on screen, it selects `id` alone.
   */
  function selectRange(id: string, order: string[]) {
    const from = anchor.value === null ? -1 : order.indexOf(anchor.value)
    const to = order.indexOf(id)
    if (to === -1) return
    if (from === -1) return toggle(id, true)
    const next = new Set(selected.value)
    for (const each of order.slice(Math.min(from, to), Math.max(from, to) + 1)) next.add(each)
    selected.value = next
    anchor.value = id
  }

  /**
   * A tick on an item shown in `order`: a range (shift+click, or "select range" on, which it then
   * turns off) from the last ticked item, or that one item (`on`: its checkbox's new state).
   */
  function pick(id: string, order: string[], how: { on?: boolean, range: boolean }) {
    if (how.range || ranging.value) {
      selectRange(id, order)
      ranging.value = false
    }
    else {
      toggle(id, how.on)
    }
  }

  function selectAll(all: string[]) {
    selected.value = new Set(all)
  }

  function clear() {
    selected.value = new Set()
    anchor.value = null
    ranging.value = false
  }

  /** Drops ids that are no longer on screen (moderated elsewhere, filtered out, deleted). */
  function keepOnly(visible: string[]) {
    const present = new Set(visible)
    if (anchor.value !== null && !present.has(anchor.value)) anchor.value = null
    if ([...selected.value].every(id => present.has(id))) return
    selected.value = new Set([...selected.value].filter(id => present.has(id)))
  }

  return { selected, anchor, ranging, count, ids, isSelected, toggle, selectRange, pick, selectAll, clear, keepOnly }
}
