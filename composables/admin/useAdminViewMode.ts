import { useLocalStorage } from '@vueuse/core'

export type AdminViewMode = 'cards' | 'dense'

/** Cards (everything about an upload) or the dense grid (many thumbnails a screen), remembered on this device. */
export function useAdminViewMode() {
  const stored = useLocalStorage<string>('em-admin-view', 'cards')
  return computed<AdminViewMode>({
    get: () => (stored.value === 'dense' ? 'dense' : 'cards'),
    set: (mode) => { stored.value = mode },
  })
}
