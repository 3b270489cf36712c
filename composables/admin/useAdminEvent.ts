import type { PinGuessUse } from '#shared/gallery-pin'
import type { AdminEventConfig, EventPatch, PublicEventInfo } from '#shared/schemas/event'
import { toApiError, type ApiError } from '~/app-utils/api-error'

/** The event configuration (admin view), the cover as guests see it, and the PIN's wrong guesses. */
export function useAdminEvent() {
  const api = useAdminApi()
  const t = useAdminMessages()
  const config = ref<AdminEventConfig | null>(null)
  const cover = ref<PublicEventInfo['cover']>(null)
  const loadError = ref<string | null>(null)
  const pinGuesses = ref<PinGuessUse | null>(null)

  /** The guesses are a notice beside the form: when they cannot be read, the tab shows none. */
  async function loadPinGuesses() {
    try {
      pinGuesses.value = await api<PinGuessUse>('/api/admin/event/pin-guesses')
    }
    catch {
      pinGuesses.value = null
    }
  }

  async function load() {
    try {
      // The admin view names the cover's id; the public one says where its image is.
      const [admin, info] = await Promise.all([
        api<AdminEventConfig>('/api/admin/event'),
        $fetch<PublicEventInfo>('/api/event', { retry: 0 }),
      ])
      config.value = admin
      cover.value = info.cover
      loadError.value = null
    }
    catch (error) {
      loadError.value = t.errors.describe(toApiError(error))
    }
  }

  async function refreshCover() {
    try {
      cover.value = (await $fetch<PublicEventInfo>('/api/event', { retry: 0 })).cover
    }
    catch {
      // The configuration is right either way; the picture shows on the next load.
    }
  }

  /** Saves a validated patch; a refusal comes back as the ApiError (with `data.issues`). */
  async function save(patch: EventPatch): Promise<AdminEventConfig> {
    const saved = await api<AdminEventConfig>('/api/admin/event', { method: 'PATCH', body: patch })
    config.value = saved
    return saved
  }

  async function clearCover(): Promise<ApiError | null> {
    try {
      config.value = await api<AdminEventConfig>('/api/admin/event/cover', { method: 'DELETE' })
      cover.value = null
      return null
    }
    catch (error) {
      return toApiError(error)
    }
  }

  /** A new venue screen key (the old address stops opening a closed gallery); a refusal comes back as the ApiError. */
  async function rotateScreenKey(): Promise<ApiError | null> {
    try {
      const { screenKey } = await api<{ screenKey: string }>('/api/admin/event/screen-key', { method: 'POST' })
      if (config.value) config.value = { ...config.value, screenKey }
      return null
    }
    catch (error) {
      return toApiError(error)
    }
  }

  /** A cover set from the moderation list. */
  function coverChanged(next: AdminEventConfig) {
    config.value = next
    void refreshCover()
  }

  return { config, cover, loadError, pinGuesses, load, loadPinGuesses, save, clearCover, coverChanged, rotateScreenKey }
}
