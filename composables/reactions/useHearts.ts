import type { GalleryItem } from '#shared/schemas/gallery'
import type { HeartAnswer, HeartedAnswer } from '#shared/schemas/reactions'

/** This device's last word on a picture: its heart, and the count its own call answered. */
interface OwnHeart {
  hearted: boolean
  hearts: number
  /** The shared gallery answer's count when this was set: once that moves, the gallery has caught up. */
  galleryHearts: number
}

/** The latest heart call per picture: an older answer landing late never undoes a newer tap. */
const latestCall = new Map<string, number>()

/**
 * Hearts feel instant: a tap changes the button and its count at once, and the call's answer (or
 * its failure, which puts the heart back) follows. Counts otherwise come from the gallery page
 * every phone already polls; which pictures this device hearted from one private call.
 */
export function useHearts() {
  const own = useState<Record<string, OwnHeart>>('hearts-own', () => ({}))
  const hearted = useState<string[]>('hearts-hearted', () => [])
  const loaded = useState('hearts-loaded', () => false)

  async function loadHearted(): Promise<void> {
    if (loaded.value) return
    loaded.value = true
    try {
      hearted.value = (await $fetch<HeartedAnswer>('/api/gallery/hearted', { retry: 0 })).ids
    }
    catch {
      loaded.value = false
    }
  }

  function isHearted(item: GalleryItem): boolean {
    return own.value[item.id]?.hearted ?? hearted.value.includes(item.id)
  }

  /** The device's own count until the shared answer moves (it lags by up to a second and a poll). */
  function heartsOf(item: GalleryItem): number {
    const mine = own.value[item.id]
    return mine && mine.galleryHearts === item.hearts ? mine.hearts : item.hearts
  }

  function keep(id: string, value: OwnHeart | undefined) {
    const next = Object.fromEntries(Object.entries(own.value).filter(([key]) => key !== id))
    own.value = value ? { ...next, [id]: value } : next
  }

  /** Hearts or un-hearts at once; answers whether the server agreed (false: the tap was undone). */
  async function toggle(item: GalleryItem): Promise<boolean> {
    const wanted = !isHearted(item)
    const before = own.value[item.id]
    const call = (latestCall.get(item.id) ?? 0) + 1
    latestCall.set(item.id, call)
    keep(item.id, { hearted: wanted, hearts: Math.max(0, heartsOf(item) + (wanted ? 1 : -1)), galleryHearts: item.hearts })
    try {
      const answer = await $fetch<HeartAnswer>(`/api/gallery/${item.id}/heart`, { method: wanted ? 'POST' : 'DELETE', retry: 0 })
      if (latestCall.get(item.id) === call) keep(item.id, { ...answer, galleryHearts: item.hearts })
      return true
    }
    catch {
      if (latestCall.get(item.id) === call) keep(item.id, before)
      return false
    }
  }

  return { loadHearted, isHearted, heartsOf, toggle }
}
