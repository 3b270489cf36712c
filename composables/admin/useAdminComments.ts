import type { AdminComment, AdminCommentListed } from '#shared/schemas/reactions'

/** The Comentários tab's list (GET /api/admin/comments) and its actions: a verdict is a POST of its own. */
export function useAdminComments() {
  const t = useAdminMessages()
  const { api, update, ...list } = useAdminWordsList<AdminCommentListed>('/api/admin/comments', count => t.comments.bulkDone(count))
  /** The answer carries no thumbnail: the card keeps the one it had. */
  function setStatus(id: string, verdict: AdminComment['status']) {
    const action = verdict === 'approved' ? 'approve' : 'reject'
    return update(action, () => api<AdminComment>(`/api/admin/comments/${id}/${action}`, { method: 'POST' }))
  }
  return { ...list, setStatus }
}
