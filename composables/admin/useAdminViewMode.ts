import { useLocalStorage } from '@vueuse/core'
import { ADMIN_VIEW_KEY } from '~/app-utils/storage-keys'

export type AdminViewMode = 'cards' | 'dense'

/** Cards (everything about an upload) or the dense grid (many thumbnails a screen), remembered on this device. */
export function useAdminViewMode() {
  const stored = useLocalStorage<string>(ADMIN_VIEW_KEY, 'cards')
  return computed<AdminViewMode>({
    get: () => (stored.value === 'dense' ? 'dense' : 'cards'),
    set: (mode) => { stored.value = mode },
  })
}
