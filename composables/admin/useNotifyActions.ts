import type { NotifyTestResponse } from '#shared/schemas/notify'

/** The notification settings' two actions beside the form: a new webhook secret, a test sent now. */
export function useNotifyActions() {
  const api = useAdminApi()
  return {
    rotateSecret: () => api<{ notifySecret: string }>('/api/admin/event/notify-secret', { method: 'POST' }),
    sendTest: () => api<NotifyTestResponse>('/api/admin/event/notify-test', { method: 'POST' }),
  }
}
