import type { Ref } from 'vue'
import type { CommentItem, CommentPage, CommentPostAnswer } from '#shared/schemas/reactions'

/** What the form says after a send: shown at once, waiting for the couple, or failed. */
export type CommentNotice = 'pending' | 'failed' | null

/**
 * One picture's approved comments (the first page, oldest first: a party's photo gathers a few)
 * and the guest's send. Asked again whenever the viewer moves to another picture; an answer for a
 * picture the guest has left is dropped.
 */
export function useComments(uploadId: Ref<string>) {
  const items = ref<CommentItem[]>([])
  const sending = ref(false)
  const notice = ref<CommentNotice>(null)
  let asked = 0

  async function load() {
    const id = uploadId.value
    const mine = ++asked
    try {
      const page = await $fetch<CommentPage>(`/api/gallery/${id}/comments`, { retry: 0 })
      if (mine === asked) items.value = page.items
    }
    catch {
      if (mine === asked) items.value = []
    }
  }

  watch(uploadId, () => {
    items.value = []
    notice.value = null
    void load()
  }, { immediate: true })

  /** Sends a comment; answers whether it was taken (the form then clears). */
  async function send(author: string, text: string): Promise<boolean> {
    const id = uploadId.value
    sending.value = true
    notice.value = null
    try {
      const answer = await $fetch<CommentPostAnswer>(`/api/gallery/${id}/comments`, { method: 'POST', body: { author, text }, retry: 0 })
      if (id !== uploadId.value) return true
      if (answer.status === 'approved') items.value = [...items.value, { id: answer.id, author, text: text.trim(), createdAt: new Date().toISOString() }]
      else notice.value = 'pending'
      return true
    }
    catch {
      if (id === uploadId.value) notice.value = 'failed'
      return false
    }
    finally {
      sending.value = false
    }
  }

  return { items, sending, notice, send }
}
