import type { AdminChallenge } from '#shared/schemas/challenges'
import type { AdminMoment } from '#shared/schemas/moments'

type Entry = AdminMoment | AdminChallenge

/**
 * A list the couple orders by hand (the moments of the day, the challenges), edited in place:
 * each change is one call, and the list shown is the server's answer, so a refused change (a
 * taken name, say) leaves what is stored on screen with the reason in a toast.
 */
export function useAdminOrderedList<T extends Entry>(base: '/api/admin/moments' | '/api/admin/challenges') {
  const adminFetch = useAdminApi()
  const toasts = useAdminToasts()
  const t = useAdminMessages()
  // One list per page, whoever shows it (the editor, the screen's moment choice).
  const items = useState<T[]>(`admin-ordered-list:${base}`, () => [])
  const busy = ref(false)

  /** `invalid`: what a 400 INVALID_REQUEST means for this change, said better than the generic text. */
  async function run(work: () => Promise<void>, invalid?: string): Promise<boolean> {
    busy.value = true
    try {
      await work()
      return true
    }
    catch (error) {
      const failure = error as { status: number | null, code: string | null }
      toasts.error(invalid && failure.status === 400 && failure.code === 'INVALID_REQUEST' ? invalid : t.errors.describe(failure))
      await load().catch(() => undefined)
      return false
    }
    finally {
      busy.value = false
    }
  }

  async function load() {
    items.value = (await adminFetch<{ items: T[] }>(base)).items
  }

  const add = (body: Record<string, unknown>) => run(async () => {
    items.value = [...items.value, await adminFetch<T>(base, { method: 'POST', body })]
  })

  const change = (id: string, body: Record<string, unknown>, invalid?: string) => run(async () => {
    const changed = await adminFetch<T>(`${base}/${id}`, { method: 'PATCH', body })
    items.value = items.value.map(item => (item.id === id ? changed : item))
  }, invalid)

  const remove = (id: string) => run(async () => {
    await adminFetch(`${base}/${id}`, { method: 'DELETE' })
    items.value = items.value.filter(item => item.id !== id)
  })

  /** One place up (-1) or down (+1). */
  const move = (index: number, by: -1 | 1) => run(async () => {
    const ids = items.value.map(item => item.id)
    const target = index + by
    if (target < 0 || target >= ids.length) return
    ;[ids[index], ids[target]] = [ids[target]!, ids[index]!]
    items.value = (await adminFetch<{ items: T[] }>(`${base}/order`, { method: 'PUT', body: { ids } })).items
  })

  return { items, busy, load, add, change, remove, move }
}
