/**
 * The one question a moderation list (uploads, messages) may be waiting on, as a small state
 * machine: nothing asked, "delete these?" (one item or the selection) or "approve these N on screen?". Asking
 * replaces any open question (one dialog, one question); answering takes it out at once, so a
 * second tap on the dialog's button cannot carry it out twice.
 */
export type AdminQuestion
  = | { kind: 'delete', ids: string[], bulk: boolean }
    | { kind: 'approve', ids: string[] }

/** What the dialog shows for a question; `tone` colours its confirm button as the action it does. */
export interface AdminQuestionDialog {
  title: string
  body: string
  confirmLabel: string
  tone: 'danger' | 'approve'
}

/** How a kind of item names its deletion: uploads by default; the guestbook's messages say theirs. */
export interface AdminDeleteWords {
  title: (count: number, bulk: boolean) => string
  body: string
}

export function useAdminConfirmation(deleteWords?: AdminDeleteWords) {
  const t = useAdminMessages()
  const question = shallowRef<AdminQuestion | null>(null)
  const words: AdminDeleteWords = deleteWords ?? {
    title: (count, bulk) => (bulk ? t.confirm.deleteManyTitle(count) : t.confirm.deleteOneTitle),
    body: t.confirm.deleteBody,
  }

  const dialog = computed<AdminQuestionDialog | null>(() => {
    const asked = question.value
    if (!asked) return null
    if (asked.kind === 'delete') {
      return {
        title: words.title(asked.ids.length, asked.bulk),
        body: words.body,
        confirmLabel: t.confirm.confirmDelete,
        tone: 'danger',
      }
    }
    return { title: t.confirm.approveManyTitle(asked.ids.length), body: t.confirm.approveManyBody, confirmLabel: t.confirm.confirmApprove, tone: 'approve' }
  })

  /** Asks to delete one upload (its card's button) or the selection (`bulk`). */
  function askDelete(ids: string[], bulk: boolean) {
    if (ids.length > 0) question.value = { kind: 'delete', ids: [...ids], bulk }
  }

  /** Asks to approve exactly these uploads (the ones on screen); nothing to approve asks nothing. */
  function askApprove(ids: string[]) {
    if (ids.length > 0) question.value = { kind: 'approve', ids: [...ids] }
  }

  function cancel() {
    question.value = null
  }

  /** The confirmed question, taken out of the dialog (which closes), for the caller to carry out. */
  function answer(): AdminQuestion | null {
    const asked = question.value
    question.value = null
    return asked
  }

  return { question: readonly(question), dialog, askDelete, askApprove, cancel, answer }
}
