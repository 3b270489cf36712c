import type { GuestbookPostResponse } from '#shared/schemas/guestbook'
import { UNDO_TOKEN_HEADER } from '#shared/undo'
import { toApiError } from '~/app-utils/api-error'

/** Sending a written message (POST /api/guestbook) and taking it back within its window. */
export function useGuestbookPost() {
  const sent = ref<GuestbookPostResponse | null>(null)
  const sending = ref(false)

  async function send(author: string, text: string): Promise<void> {
    sending.value = true
    try {
      sent.value = await $fetch<GuestbookPostResponse>('/api/guestbook', { method: 'POST', body: { author, text }, retry: 0 })
    }
    catch (error) {
      throw toApiError(error)
    }
    finally {
      sending.value = false
    }
  }

  async function undo(): Promise<void> {
    const message = sent.value
    if (!message) return
    await $fetch(`/api/guestbook/${message.id}`, { method: 'DELETE', headers: { [UNDO_TOKEN_HEADER]: message.undoToken }, retry: 0 })
      .catch((error) => {
        throw toApiError(error)
      })
    sent.value = null
  }

  function reset() {
    sent.value = null
  }

  return { sent, sending, send, undo, reset }
}
