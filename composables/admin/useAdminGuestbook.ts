import type { AdminGuestbookItem } from '#shared/schemas/guestbook'

/** The Recados tab's list (GET /api/admin/guestbook) and its actions: a verdict and an edit are one PATCH. */
export function useAdminGuestbook() {
  const t = useAdminMessages()
  const { api, update, ...list } = useAdminWordsList<AdminGuestbookItem>('/api/admin/guestbook', count => t.guestbook.bulkDone(count))
  const patch = (id: string, body: { status?: AdminGuestbookItem['status'], author?: string, text?: string }) =>
    () => api<AdminGuestbookItem>(`/api/admin/guestbook/${id}`, { method: 'PATCH', body })
  const setStatus = (id: string, status: AdminGuestbookItem['status']) => update(status === 'approved' ? 'approve' : 'reject', patch(id, { status }))
  const edit = (id: string, words: { author: string, text: string }) => update('edit', patch(id, words))
  return { ...list, setStatus, edit }
}
