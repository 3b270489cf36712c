export interface AdminToast {
  id: number
  text: string
  tone: 'info' | 'error'
}

const SHOWN_FOR_MS = { info: 3500, error: 8000 }
let nextId = 1

/** Short notices at the bottom of the dashboard: confirmations, and failures that were rolled back. */
export function useAdminToasts() {
  const toasts = useState<AdminToast[]>('admin-toasts', () => [])

  function dismiss(id: number) {
    toasts.value = toasts.value.filter(toast => toast.id !== id)
  }

  function show(text: string, tone: AdminToast['tone'] = 'info') {
    const toast = { id: nextId++, text, tone }
    // The newest few only: a burst of failures must not cover the screen.
    toasts.value = [...toasts.value.slice(-2), toast]
    setTimeout(() => dismiss(toast.id), SHOWN_FOR_MS[tone])
  }

  return {
    toasts,
    dismiss,
    info: (text: string) => show(text, 'info'),
    error: (text: string) => show(text, 'error'),
  }
}
