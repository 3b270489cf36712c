import { toApiError } from '~/app-utils/api-error'

type DevicePushState = 'unsupported' | 'denied' | 'off' | 'on'

/** VAPID keys travel base64url; the Push API wants the bytes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=')
  return Uint8Array.from(atob(base64), char => char.charCodeAt(0))
}

/**
 * "Avisar neste aparelho": this browser's push subscription, made with the server's VAPID key and
 * handed to the server, or taken back. The service worker shows what is pushed (service-worker/admin-push.ts).
 */
export function useDevicePush() {
  const api = useAdminApi()
  const t = useAdminMessages()
  const state = ref<DevicePushState>('off')
  const busy = ref(false)
  const problem = ref('')

  const supported = () => import.meta.client && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

  async function subscription(): Promise<PushSubscription | null> {
    const registration = await navigator.serviceWorker.getRegistration('/')
    return (await registration?.pushManager.getSubscription()) ?? null
  }

  async function refresh() {
    if (!supported()) {
      state.value = 'unsupported'
      return
    }
    if (Notification.permission === 'denied') {
      state.value = 'denied'
      return
    }
    state.value = await subscription() ? 'on' : 'off'
  }

  async function turnOn() {
    const registration = await navigator.serviceWorker.ready
    if (await Notification.requestPermission() !== 'granted') {
      state.value = 'denied'
      return
    }
    const { publicKey } = await api<{ publicKey: string }>('/api/admin/push/key')
    const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })
    await api('/api/admin/push/subscriptions', { method: 'POST', body: made.toJSON() as Record<string, unknown> })
    state.value = 'on'
  }

  async function turnOff() {
    const current = await subscription()
    if (current) {
      await api('/api/admin/push/subscriptions', { method: 'DELETE', body: { endpoint: current.endpoint } })
      await current.unsubscribe()
    }
    state.value = 'off'
  }

  async function toggle(on: boolean) {
    busy.value = true
    problem.value = ''
    try {
      await (on ? turnOn() : turnOff())
    }
    catch (error) {
      const failure = toApiError(error)
      problem.value = failure.status === null && !navigator.onLine ? t.errors.describe(failure) : t.notifications.deviceFailed
      await refresh().catch(() => undefined)
    }
    finally {
      busy.value = false
    }
  }

  onMounted(() => void refresh().catch(() => undefined))
  return { state, busy, problem, toggle }
}
