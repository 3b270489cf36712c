/**
 * The venue screen's address and its options. They live in the address, not in the event's
 * settings: each screen (the projector, a TV by the bar) may want its own pace, and the address is
 * what a kiosk browser is started with, so it survives a power cut without anyone logging in.
 * /galeria reads them; the admin's Event tab writes them.
 */
import { SLIDESHOW_PAGE, SLIDESHOW_SWITCH } from './slideshow-address'

// Whether an address is the venue screen is asked on every page (the language, the footer): a
// module of its own, so that the screen's options below stay in the gallery's chunk.
export { isSlideshowAddress, isSlideshowQuery, SLIDESHOW_PAGE } from './slideshow-address'

/** `segundos`: how long each photo stays; `convite`: the "send your photos" card every N slides (0: never). */
/** `recados`: a guest's written message as a full-screen card every N slides (0: never). */
/** `desafios`: one of the couple's challenges as a card (its prompt, the QR) then its latest answers, every N slides (0: never). */
/** `chave`: the venue screen's key. `momento`: one moment of the day only (the toast, the party). */
export const SLIDESHOW_QUERY = { slideshow: SLIDESHOW_SWITCH, photoSeconds: 'segundos', inviteEvery: 'convite', messageEvery: 'recados', challengeEvery: 'desafios', screenKey: 'chave', moment: 'momento' } as const

/**
 * A challenge every 15 slides: at 6 s a photo about every minute and a half, after the card's own
 * answers (up to three) have played; often enough that a guest in the hall sees a prompt or two
 * while a drink lasts, rarely enough that the photos stay the show.
 */
export const SLIDESHOW_DEFAULTS = { photoSeconds: 6, inviteEvery: 12, messageEvery: 5, challengeEvery: 15 } as const
/**
 * A video that has not started playing by then (a codec the screen lacks, a stalled stream) shows
 * its poster for a photo's time instead: the screen never waits on a black frame.
 */
export const VIDEO_START_MS = 3000

export const SLIDESHOW_BOUNDS = {
  photoSeconds: { min: 2, max: 60 },
  inviteEvery: { min: 0, max: 200 },
  messageEvery: { min: 0, max: 200 },
  challengeEvery: { min: 0, max: 200 },
} as const

export interface SlideshowOptions {
  photoSeconds?: number
  inviteEvery?: number
  messageEvery?: number
  challengeEvery?: number
  /** `chave`: the venue screen's key, which lets this screen show a closed or PIN-guarded gallery. */
  screenKey?: string
  /** `momento`: plays one moment's photos only (`GET /api/gallery?moment=`). */
  moment?: string
}

/** A query value as a number, or undefined when absent or not a number. */
function numberOf(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined
  const value = Number(raw)
  return Number.isFinite(value) ? value : undefined
}

const clamp = (value: number, bounds: { min: number, max: number }) => Math.min(bounds.max, Math.max(bounds.min, value))

/** The options the address carries; what it leaves out (or spells wrong) takes the default. */
export function slideshowOptionsOf(query: Record<string, unknown>): SlideshowOptions {
  const seconds = numberOf(query[SLIDESHOW_QUERY.photoSeconds])
  const every = numberOf(query[SLIDESHOW_QUERY.inviteEvery])
  const messageEvery = numberOf(query[SLIDESHOW_QUERY.messageEvery])
  const challengeEvery = numberOf(query[SLIDESHOW_QUERY.challengeEvery])
  const key = query[SLIDESHOW_QUERY.screenKey]
  const moment = query[SLIDESHOW_QUERY.moment]
  return {
    ...(typeof key === 'string' && /^[\w-]{1,200}$/.test(key) ? { screenKey: key } : {}),
    ...(typeof moment === 'string' && /^[\w-]{1,64}$/.test(moment) ? { moment } : {}),
    // Seconds may be fractional (2.5); zero or less means "not said".
    ...(seconds !== undefined && seconds > 0 ? { photoSeconds: clamp(seconds, SLIDESHOW_BOUNDS.photoSeconds) } : {}),
    ...(every !== undefined ? { inviteEvery: clamp(Math.round(every), SLIDESHOW_BOUNDS.inviteEvery) } : {}),
    ...(messageEvery !== undefined ? { messageEvery: clamp(Math.round(messageEvery), SLIDESHOW_BOUNDS.messageEvery) } : {}),
    ...(challengeEvery !== undefined ? { challengeEvery: clamp(Math.round(challengeEvery), SLIDESHOW_BOUNDS.challengeEvery) } : {}),
  }
}

/** `/galeria?slideshow=1`, plus only the options that differ from the defaults (a short address to type on a TV). */
export function slideshowPathOf(options: SlideshowOptions = {}): string {
  const query = new URLSearchParams({ [SLIDESHOW_QUERY.slideshow]: '1' })
  const { photoSeconds, inviteEvery } = slideshowOptionsOf({
    [SLIDESHOW_QUERY.photoSeconds]: options.photoSeconds === undefined ? undefined : String(options.photoSeconds),
    [SLIDESHOW_QUERY.inviteEvery]: options.inviteEvery === undefined ? undefined : String(options.inviteEvery),
  })
  if (photoSeconds !== undefined && photoSeconds !== SLIDESHOW_DEFAULTS.photoSeconds) query.set(SLIDESHOW_QUERY.photoSeconds, String(photoSeconds))
  if (inviteEvery !== undefined && inviteEvery !== SLIDESHOW_DEFAULTS.inviteEvery) query.set(SLIDESHOW_QUERY.inviteEvery, String(inviteEvery))
  if (options.screenKey) query.set(SLIDESHOW_QUERY.screenKey, options.screenKey)
  if (options.moment) query.set(SLIDESHOW_QUERY.moment, options.moment)
  return `${SLIDESHOW_PAGE}?${query}`
}
