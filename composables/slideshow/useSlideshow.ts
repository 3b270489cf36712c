import type { GalleryItem } from '#shared/schemas/gallery'
import { fetchGalleryPage } from '../useGallery'
import { createRotation } from './rotation'
import { SLIDESHOW_DEFAULTS } from '#shared/slideshow'

/** How many of the newest approved items the screen rotates through (and holds in memory). */
export const SLIDESHOW_POOL_MAX = 300
/** The page size of its polls (service-worker/addresses.ts keeps the first page for offline). */
export const PAGE_LIMIT = 100
/** New approvals reach the screen within about this long (plus the photo on screen). */
export const SLIDESHOW_POLL_MS = 10_000
export const PHOTO_SECONDS = SLIDESHOW_DEFAULTS.photoSeconds
/** Crossfade length; keep in step with the CSS transition of the slides. */
export const FADE_MS = 1200
/** A photo or video that has not started showing by then is skipped. */
const LOAD_TIMEOUT_MS = 20_000
/** A video that never says it ended (a broken stream) is cut after its duration and this much. */
const VIDEO_GRACE_MS = 8000
const VIDEO_MAX_MS = 10 * 60_000
/** When everything fails to load (offline and not cached), wait this long before trying again. */
const ALL_FAILED_PAUSE_MS = 5000
/** How long the "send your photos" card stays: long enough to take a phone out and point it. */
export const INVITE_MS = 8000

/** One item on screen, or on its way there (loading under the current one until it is ready). */
export interface SlideLayer {
  key: number
  item: GalleryItem
  ready: boolean
}

/**
 * The venue screen's engine: polls the newest approved items, decides what comes next, and keeps
 * at most three slides alive (leaving, showing, loading). Timers are single and replaced, never
 * stacked; listeners are added once on mount and removed on unmount: memory stays flat for hours.
 */
export function useSlideshow(options: { photoSeconds?: number, inviteEvery?: number, screenKey?: string } = {}) {
  // Never shorter than the crossfade, or slides would pile up mid-fade.
  const photoMs = Math.max(FADE_MS * 2, (options.photoSeconds ?? PHOTO_SECONDS) * 1000)
  const rotation = createRotation(SLIDESHOW_POOL_MAX)
  const layers = shallowRef<SlideLayer[]>([])
  const poolSize = ref(0)
  const online = ref(true)
  const loadedOnce = ref(false)
  /** The "send your photos" card is on screen (over the slide, which waits under it). */
  const inviting = ref(false)
  /** Every this many slides the full-screen "send your photos" card shows (0: never). */
  const inviteEvery = options.inviteEvery ?? SLIDESHOW_DEFAULTS.inviteEvery

  const current = computed(() => [...layers.value].reverse().find(layer => layer.ready) ?? null)
  const currentItem = computed(() => current.value?.item ?? null)

  let nextKey = 1
  let showTimer: ReturnType<typeof setTimeout> | undefined
  let loadTimer: ReturnType<typeof setTimeout> | undefined
  let cleanupTimer: ReturnType<typeof setTimeout> | undefined
  let pollTimer: ReturnType<typeof setTimeout> | undefined
  let inviteTimer: ReturnType<typeof setTimeout> | undefined
  let consecutiveFailures = 0
  let slidesSinceInvite = 0
  let running = false

  const pending = () => layers.value.find(layer => !layer.ready) ?? null

  /** Up to three pages of 100, newest first: the set the screen rotates through. */
  async function fetchSnapshot(): Promise<GalleryItem[]> {
    const items: GalleryItem[] = []
    let cursor: string | undefined
    while (items.length < SLIDESHOW_POOL_MAX) {
      const page = await fetchGalleryPage({ limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}), ...(options.screenKey ? { screenKey: options.screenKey } : {}) })
      items.push(...page.items)
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    return items
  }

  async function poll() {
    try {
      const snapshot = await fetchSnapshot()
      online.value = true
      const { added, removed } = rotation.update(snapshot)
      poolSize.value = rotation.size
      loadedOnce.value = true
      if (removed.size) dropRemoved(removed)
      // Something new while a photo shows: it comes next, after the photo's time (not cut short).
      if (!current.value && !pending()) advance()
      else if (added.length && consecutiveFailures > 0) advance()
    }
    catch {
      // Offline or a server hiccup: keep looping what we have.
      online.value = false
    }
    finally {
      if (running) {
        clearTimeout(pollTimer)
        pollTimer = setTimeout(poll, SLIDESHOW_POLL_MS)
      }
    }
  }

  /** Rejected or deleted items leave the screen at once, not when their turn ends. */
  function dropRemoved(removed: Set<string>) {
    const before = layers.value
    const kept = before.filter(layer => !removed.has(layer.item.id))
    if (kept.length === before.length) return
    const currentGone = current.value && removed.has(current.value.item.id)
    const pendingGone = before.some(layer => !layer.ready && removed.has(layer.item.id))
    layers.value = kept
    if (currentGone || pendingGone) {
      clearTimeout(showTimer)
      clearTimeout(loadTimer)
      advance()
    }
  }

  /** Starts loading the next item under the current one (or shows the card first, when due). */
  function advance() {
    // The card ends by advancing itself: whatever asks meanwhile (a poll, a removal) waits for it.
    if (!running || inviting.value) return
    clearTimeout(showTimer)
    clearTimeout(loadTimer)
    if (inviteEvery > 0 && slidesSinceInvite >= inviteEvery) {
      slidesSinceInvite = 0
      inviting.value = true
      inviteTimer = setTimeout(() => {
        inviting.value = false
        advance()
      }, INVITE_MS)
      return
    }
    const showing = current.value
    const item = rotation.next(showing?.item.id ?? null)
    // Drop a slide still loading: the new choice replaces it.
    const withoutPending = layers.value.filter(layer => layer.ready)
    if (!item) {
      layers.value = withoutPending
      return
    }
    if (showing && item.id === showing.item.id && item.kind === 'photo') {
      // A single photo in the pool: it stays, no fade into itself (but it counts towards the card).
      layers.value = withoutPending
      slidesSinceInvite++
      showTimer = setTimeout(advance, photoMs)
      return
    }
    const layer: SlideLayer = { key: nextKey++, item, ready: false }
    layers.value = [...withoutPending, layer]
    loadTimer = setTimeout(() => failed(layer.key), LOAD_TIMEOUT_MS)
  }

  /** The slide's media can be shown: fade it in, retire the older ones after the fade. */
  function ready(key: number, durationSec?: number) {
    const layer = layers.value.find(candidate => candidate.key === key)
    if (!layer || layer.ready) return
    clearTimeout(loadTimer)
    consecutiveFailures = 0
    slidesSinceInvite++
    // Only the slide on screen until now stays, to fade out under this one: never more than three alive.
    const index = layers.value.findIndex(candidate => candidate.key === key)
    const leaving = layers.value.slice(0, index).filter(candidate => candidate.ready).slice(-1)
    layers.value = [...leaving, { ...layer, ready: true }, ...layers.value.slice(index + 1)]
    clearTimeout(cleanupTimer)
    cleanupTimer = setTimeout(() => {
      const index = layers.value.findIndex(candidate => candidate.key === key)
      if (index > 0) layers.value = layers.value.slice(index)
    }, FADE_MS)
    clearTimeout(showTimer)
    if (layer.item.kind === 'photo') {
      showTimer = setTimeout(advance, photoMs)
    }
    else {
      // Videos play to their end ('ended' calls `ended`); this only guards against a stream that never ends.
      const known = durationSec && Number.isFinite(durationSec) ? durationSec * 1000 + VIDEO_GRACE_MS : VIDEO_MAX_MS
      showTimer = setTimeout(advance, Math.min(known, VIDEO_MAX_MS))
    }
  }

  function ended(key: number) {
    if (current.value?.key === key) advance()
  }

  /** Could not load (offline and not cached, a broken file): skip it, and pause if nothing loads. */
  function failed(key: number) {
    const layer = layers.value.find(candidate => candidate.key === key)
    if (!layer) return
    clearTimeout(loadTimer)
    layers.value = layers.value.filter(candidate => candidate.key !== key)
    if (layer.ready) {
      advance()
      return
    }
    consecutiveFailures++
    clearTimeout(showTimer)
    if (consecutiveFailures >= Math.max(1, rotation.size)) {
      consecutiveFailures = 0
      showTimer = setTimeout(advance, ALL_FAILED_PAUSE_MS)
    }
    else {
      advance()
    }
  }

  const onOnline = () => {
    clearTimeout(pollTimer)
    void poll()
  }

  onMounted(() => {
    running = true
    window.addEventListener('online', onOnline)
    void poll()
  })
  onBeforeUnmount(() => {
    running = false
    window.removeEventListener('online', onOnline)
    for (const timer of [showTimer, loadTimer, cleanupTimer, pollTimer, inviteTimer]) clearTimeout(timer)
    layers.value = []
  })

  return { layers, current, currentItem, poolSize, online, loadedOnce, inviting, ready, ended, failed, held: () => rotation.held }
}
