import { SLIDESHOW_PAGE_SIZE, type GalleryItem, type GalleryPage } from '#shared/schemas/gallery'
import { galleryGateOf } from '../useGallery'
import { createRotation } from './rotation'
import { askToSave, savedIds, workerControlled } from './saved-media'
import { SLIDESHOW_DEFAULTS, VIDEO_START_MS } from '#shared/slideshow'

/** How many of the newest approved items the screen rotates through (and holds in memory). */
export const SLIDESHOW_POOL_MAX = 300
/** New approvals reach the screen within about this long (plus the photo on screen). */
export const SLIDESHOW_POLL_MS = 10_000
export const PHOTO_SECONDS = SLIDESHOW_DEFAULTS.photoSeconds
/** Crossfade length; keep in step with the CSS transition of the slides. */
export const FADE_MS = 1200
/**
 * A poll with no answer by then counts as offline. Longer than the service worker's own network
 * limit (4 s, service-worker/sw.ts), so a hanging network gets the worker's kept answer first.
 */
export const POLL_TIMEOUT_MS = 6000
/** A photo or video that has not started showing by then is skipped. */
const LOAD_TIMEOUT_MS = 20_000
/** A video that never says it ended (a broken stream) is cut after its duration and this much. */
const VIDEO_GRACE_MS = 8000
const VIDEO_MAX_MS = 10 * 60_000
/**
 * A slide with words stays long enough to read them from the back of the hall: this long to find
 * them, then this many characters a second (slow reading, on a screen across a room), up to a
 * message's full length (1000 characters: about 69 s).
 */
const READ_START_MS = 2000
const READ_CHARS_PER_SECOND = 15

/** How long a photo (or a still) with `message` stays: the chosen pace, or the time its words need. */
export function holdMs(photoMs: number, message: string): number {
  const words = message.trim().length
  return words ? Math.max(photoMs, READ_START_MS + (words / READ_CHARS_PER_SECOND) * 1000) : photoMs
}

/** When everything fails to load (offline and not cached), wait this long before trying again. */
const ALL_FAILED_PAUSE_MS = 5000
/** How long the "send your photos" card stays: long enough to take a phone out and point it. */
export const INVITE_MS = 8000

/**
 * A full-screen card shown between slides on a rhythm of its own (a guest's written message, a
 * challenge): `take` answers the next one and how long it stays, or null when there is none to
 * show; `then`, the items that play right after it (a challenge's answers).
 */
export interface SlideshowInterlude {
  every: number
  take: () => { id: string, holdMs: number, then?: GalleryItem[] } | null
}

/** One item on screen, or on its way there (loading under the current one until it is ready). */
export interface SlideLayer {
  key: number
  item: GalleryItem
  ready: boolean
  /**
   * A video shown as its poster, for a photo's time: offline (its bytes are not saved, its poster
   * is), one with no copy every screen plays (`poster-only`), or one that did not start playing.
   */
  still: boolean
}

/** One page of the gallery, and whether it came from the service worker's kept copy (the network failed or hung). */
async function fetchPage(query: { limit: number, cursor?: string, screenKey?: string, moment?: string }): Promise<{ page: GalleryPage, kept: boolean }> {
  const response = await $fetch.raw<GalleryPage>('/api/gallery', { query, retry: 0, timeout: POLL_TIMEOUT_MS })
  return { page: response._data ?? { items: [], nextCursor: null }, kept: response.headers.has('x-offline-copy') }
}

/**
 * The venue screen's engine: polls the newest approved items, decides what comes next, and keeps
 * at most three slides alive (leaving, showing, loading). Timers are single and replaced, never
 * stacked; listeners are added once on mount and removed on unmount: memory stays flat for hours.
 */
export function useSlideshow(options: { photoSeconds?: number, inviteEvery?: number, interludes?: SlideshowInterlude[], screenKey?: string, moment?: string } = {}) {
  // Never shorter than the crossfade, or slides would pile up mid-fade.
  const photoMs = Math.max(FADE_MS * 2, (options.photoSeconds ?? PHOTO_SECONDS) * 1000)
  const rotation = createRotation(SLIDESHOW_POOL_MAX)
  const layers = shallowRef<SlideLayer[]>([])
  const poolSize = ref(0)
  /** The last poll had the network's answer (not failed, not hung, not the worker's kept copy). */
  const online = ref(true)
  /**
   * The gallery refused this screen (a PIN, or closed to guests) because its address has no valid
   * key: the network works, so this is no offline state; the page says where the keyed address is.
   */
  const needsKey = ref(false)
  /** Ids of the pool's items whose image the service worker holds offline. */
  const saved = shallowRef(new Set<string>())
  let pool: GalleryItem[] = []
  const loadedOnce = ref(false)
  /** The "send your photos" card is on screen (over the slide, which waits under it). */
  const inviting = ref(false)
  /** Every this many slides the full-screen "send your photos" card shows (0: never). */
  const inviteEvery = options.inviteEvery ?? SLIDESHOW_DEFAULTS.inviteEvery
  /** The interlude card on screen (its id), over the slide that waits under it; null when none. */
  const interludeId = ref<string | null>(null)
  let interludeTimer: ReturnType<typeof setTimeout> | undefined
  const interludes = (options.interludes ?? []).filter(interlude => interlude.every > 0)
  /** Slides since each interlude's last card, in `interludes`' order. */
  const slidesSinceInterlude = interludes.map(() => 0)
  /** What a card brought to play right after it, before the rotation goes on. */
  let upNext: GalleryItem[] = []
  /** One card at a time: after a card comes a slide, never a second card. */
  let cardJustEnded = false
  const countSlide = () => {
    slidesSinceInvite++
    for (let at = 0; at < slidesSinceInterlude.length; at++) slidesSinceInterlude[at]!++
  }

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
  async function fetchSnapshot(): Promise<{ items: GalleryItem[], kept: boolean }> {
    const items: GalleryItem[] = []
    let kept = false
    let cursor: string | undefined
    while (items.length < SLIDESHOW_POOL_MAX) {
      const answer = await fetchPage({ limit: SLIDESHOW_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(options.screenKey ? { screenKey: options.screenKey } : {}), ...(options.moment ? { moment: options.moment } : {}) })
      items.push(...answer.page.items)
      kept ||= answer.kept
      if (!answer.page.nextCursor) break
      cursor = answer.page.nextCursor
    }
    return { items, kept }
  }

  /**
   * Whether an item can show now. Offline, under a service worker, only what it saved: anything
   * else would wait on a network that fails or hangs (a frozen frame, then a skip). Without a
   * worker (plain http on a LAN address) the browser's own cache may still hold it: it is tried.
   */
  function usable(item: GalleryItem): boolean {
    return online.value || !workerControlled() || saved.value.has(item.id)
  }

  async function countSaved() {
    saved.value = await savedIds(pool).catch(() => saved.value)
  }

  let countTimer: ReturnType<typeof setTimeout> | undefined
  /** The worker saved another image: counted again a moment later (it saves them one after another). */
  const onWorkerMessage = (message: MessageEvent<{ type?: string }>) => {
    if (message.data?.type !== 'media-kept' || countTimer) return
    countTimer = setTimeout(() => {
      countTimer = undefined
      void countSaved()
    }, 500)
  }

  /** The network just went: a slide waiting on it is replaced by one that can show, a video by a still. */
  function leaveTheNetwork() {
    const waiting = pending()
    const showing = current.value
    if ((waiting && !waiting.still && (waiting.item.kind === 'video' || !usable(waiting.item)))
      || (!waiting && showing?.item.kind === 'video' && !showing.still)) {
      clearTimeout(loadTimer)
      layers.value = layers.value.filter(layer => layer.ready)
      advance()
    }
  }

  async function poll() {
    const wasOnline = online.value
    try {
      const snapshot = await fetchSnapshot()
      online.value = !snapshot.kept
      needsKey.value = false
      const { added, removed } = rotation.update(snapshot.items)
      pool = snapshot.items.slice(0, SLIDESHOW_POOL_MAX)
      poolSize.value = rotation.size
      await countSaved()
      loadedOnce.value = true
      if (online.value) askToSave(pool.filter(item => !saved.value.has(item.id)))
      if (removed.size) dropRemoved(removed)
      // Something new while a photo shows: it comes next, after the photo's time (not cut short).
      if (!current.value && !pending()) advance()
      else if (added.length && consecutiveFailures > 0) advance()
      else if (wasOnline && !online.value) leaveTheNetwork()
    }
    catch (error) {
      if (galleryGateOf(error)) {
        // Refused, not unreachable: the screen shows what a guest would see, nothing.
        online.value = true
        needsKey.value = true
        pool = []
        poolSize.value = 0
        dropRemoved(rotation.update([]).removed)
        return
      }
      // Offline, a hanging network or a server hiccup: keep looping what we have.
      online.value = false
      if (wasOnline) leaveTheNetwork()
      // A screen reloaded with nothing to show yet (the kept answer too was unreadable).
      if (!current.value && !pending() && rotation.size) advance()
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
    upNext = upNext.filter(item => !removed.has(item.id))
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

  /** The next of what a card brought that can show now (not the one on screen), or null. */
  function takeUpNext(showingId: string | null): GalleryItem | null {
    while (upNext.length) {
      const item = upNext.shift()!
      if (item.id !== showingId && usable(item)) return item
    }
    return null
  }

  /** Starts loading the next item under the current one (or shows the card first, when due). */
  function advance() {
    // The card ends by advancing itself: whatever asks meanwhile (a poll, a removal) waits for it.
    if (!running || inviting.value || interludeId.value) return
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
    const due = cardJustEnded ? -1 : interludes.findIndex((interlude, at) => slidesSinceInterlude[at]! >= interlude.every)
    cardJustEnded = false
    if (due >= 0) {
      const card = interludes[due]!.take()
      slidesSinceInterlude[due] = 0
      if (card) {
        interludeId.value = card.id
        upNext = (card.then ?? []).slice()
        interludeTimer = setTimeout(() => {
          interludeId.value = null
          cardJustEnded = true
          advance()
        }, card.holdMs)
        return
      }
    }
    const showing = current.value
    const item = takeUpNext(showing?.item.id ?? null) ?? rotation.next(showing?.item.id ?? null, usable)
    // Drop a slide still loading: the new choice replaces it.
    const withoutPending = layers.value.filter(layer => layer.ready)
    if (!item) {
      layers.value = withoutPending
      // Nothing can show now (offline, nothing saved yet): try again, the current slide stays.
      showTimer = setTimeout(advance, showing ? photoMs : ALL_FAILED_PAUSE_MS)
      return
    }
    const still = item.kind === 'video' && (!online.value || item.display === 'poster-only')
    if (showing && item.id === showing.item.id && (item.kind === 'photo' || showing.still)) {
      // A single photo in the pool: it stays, no fade into itself (but it counts towards the card).
      layers.value = withoutPending
      countSlide()
      showTimer = setTimeout(advance, holdMs(photoMs, item.message))
      return
    }
    const layer: SlideLayer = { key: nextKey++, item, ready: false, still }
    layers.value = [...withoutPending, layer]
    loadTimer = setTimeout(() => failed(layer.key), item.kind === 'video' && !still ? VIDEO_START_MS : LOAD_TIMEOUT_MS)
  }

  /** The slide's media can be shown: fade it in, retire the older ones after the fade. */
  function ready(key: number, durationSec?: number) {
    const layer = layers.value.find(candidate => candidate.key === key)
    if (!layer || layer.ready) return
    clearTimeout(loadTimer)
    consecutiveFailures = 0
    countSlide()
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
    if (layer.item.kind === 'photo' || layer.still) {
      showTimer = setTimeout(advance, holdMs(photoMs, layer.item.message))
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

  /**
   * Could not load (offline and not cached, a broken file): a video with a poster shows the poster
   * instead; anything else is skipped, with a pause when nothing loads.
   */
  function failed(key: number) {
    const layer = layers.value.find(candidate => candidate.key === key)
    if (!layer) return
    clearTimeout(loadTimer)
    if (!layer.ready && layer.item.kind === 'video' && !layer.still && layer.item.thumbUrl) {
      // Could not play (an error, or not started within VIDEO_START_MS): its poster, as a photo.
      layers.value = layers.value.map(candidate => (candidate.key === key ? { ...candidate, still: true } : candidate))
      loadTimer = setTimeout(() => failed(key), LOAD_TIMEOUT_MS)
      return
    }
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
    navigator.serviceWorker?.addEventListener('message', onWorkerMessage)
    void poll()
  })
  onBeforeUnmount(() => {
    running = false
    window.removeEventListener('online', onOnline)
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage)
    for (const timer of [showTimer, loadTimer, cleanupTimer, pollTimer, inviteTimer, countTimer, interludeTimer]) clearTimeout(timer)
    layers.value = []
  })

  const savedCount = computed(() => saved.value.size)
  return { layers, current, currentItem, poolSize, online, needsKey, savedCount, loadedOnce, inviting, interludeId, ready, ended, failed, held: () => rotation.held }
}
