export interface AdminShortcutHandlers {
  approve: (id: string) => void
  reject: (id: string) => void
}

const ITEM_SELECTOR = '[data-testid=admin-upload]'

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** The list items in screen order. */
function listItems(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(ITEM_SELECTOR)]
}

function focusedItem(): HTMLElement | null {
  const active = document.activeElement
  return active instanceof HTMLElement ? active.closest<HTMLElement>(ITEM_SELECTOR) : null
}

/**
 * Laptop moderation: j / k (or the arrow keys) move the focus from upload to upload, a approves
 * and r rejects the focused one. Ignored while typing, with modifier keys, or under an open dialog.
 */
export function useAdminShortcuts(handlers: AdminShortcutHandlers, enabled: MaybeRefOrGetter<boolean> = true) {
  function move(step: 1 | -1) {
    const all = listItems()
    if (all.length === 0) return false
    const at = all.indexOf(focusedItem() as HTMLElement)
    const next = at === -1 ? (step === 1 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, at + step))
    all[next]!.focus()
    all[next]!.scrollIntoView({ block: 'nearest' })
    return true
  }

  /** After the focused item acts (and may leave the list), focus goes to its neighbour. */
  function actOnFocused(act: (id: string) => void) {
    const item = focusedItem()
    const id = item?.dataset.id
    if (!item || !id) return false
    const all = listItems()
    const at = all.indexOf(item)
    const neighbourId = (all[at + 1] ?? all[at - 1])?.dataset.id
    act(id)
    void nextTick(() => {
      if (document.body.contains(item)) return
      const neighbour = listItems().find(el => el.dataset.id === neighbourId)
      neighbour?.focus()
    })
    return true
  }

  function onKeydown(event: KeyboardEvent) {
    if (!toValue(enabled) || event.defaultPrevented) return
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return
    if (document.querySelector('dialog[open]')) return
    let handled = false
    switch (event.key) {
      case 'j':
        handled = move(1)
        break
      case 'k':
        handled = move(-1)
        break
      // The arrows keep scrolling the page until an upload has the focus.
      case 'ArrowDown':
        handled = focusedItem() !== null && move(1)
        break
      case 'ArrowUp':
        handled = focusedItem() !== null && move(-1)
        break
      case 'a':
        handled = actOnFocused(handlers.approve)
        break
      case 'r':
        handled = actOnFocused(handlers.reject)
        break
    }
    if (handled) event.preventDefault()
  }

  onMounted(() => window.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))
}
