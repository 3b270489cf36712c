/** The uploads ticked for a bulk action. */
export function useAdminSelection() {
  const selected = ref(new Set<string>())

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
  }

  function selectAll(all: string[]) {
    selected.value = new Set(all)
  }

  function clear() {
    selected.value = new Set()
  }

  /** Drops ids that are no longer on screen (moderated elsewhere, filtered out, deleted). */
  function keepOnly(visible: string[]) {
    const present = new Set(visible)
    if ([...selected.value].every(id => present.has(id))) return
    selected.value = new Set([...selected.value].filter(id => present.has(id)))
  }

  return { selected, count, ids, isSelected, toggle, selectAll, clear, keepOnly }
}
