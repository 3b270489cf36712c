import type { PublicChallenge, PublicChallengeList } from '#shared/schemas/challenges'
import type { GalleryItem, GalleryPage } from '#shared/schemas/gallery'
import type { SlideshowInterlude } from './slideshow'

/** A challenge card is followed by this many of its newest approved answers. */
export const CHALLENGE_ANSWERS = 3
const CHALLENGES_POLL_MS = 60_000
/** A prompt stays long enough to take a phone out: this long at least, longer for a long prompt. */
const CHALLENGE_MIN_MS = 10_000
const CHALLENGE_MS_PER_CHARACTER = 80

export function challengeHoldMs(text: string): number {
  return Math.max(CHALLENGE_MIN_MS, 2000 + text.length * CHALLENGE_MS_PER_CHARACTER)
}

/** The id a challenge's card goes by on the screen, apart from the guestbook's message ids. */
const cardIdOf = (challengeId: string) => `challenge:${challengeId}`

/**
 * The couple's challenges on the venue screen: the active prompts, polled on their own and handed
 * to the slideshow as an interlude every `every` slides, one after another in the couple's order;
 * each card brings the challenge's newest answers to play after it. The answers of the card due
 * next are fetched ahead (with the prompts, and when a card is taken), so the card never waits on
 * the network. A screen playing one moment plays only that moment's answers.
 */
export function useSlideshowChallenges(every: number, screenKey?: string, moment?: string) {
  const challenges = shallowRef<PublicChallenge[]>([])
  const onScreen = shallowRef<PublicChallenge | null>(null)
  /** The challenge due next and its answers, once fetched. */
  let prepared: { id: string, answers: GalleryItem[] } | null = null
  let lastShownId: string | null = null
  const keyQuery = screenKey ? { screenKey } : {}

  function dueNext(): PublicChallenge | null {
    const all = challenges.value
    if (!all.length) return null
    const last = all.findIndex(challenge => challenge.id === lastShownId)
    return all[(last + 1) % all.length]!
  }

  async function prepare() {
    const next = dueNext()
    if (!next) {
      prepared = null
      return
    }
    try {
      const page = await $fetch<GalleryPage>('/api/gallery', { query: { challenge: next.id, limit: CHALLENGE_ANSWERS * 2, ...keyQuery }, retry: 0, timeout: 15_000 })
      const answers = page.items.filter(item => !moment || item.momentId === moment).slice(0, CHALLENGE_ANSWERS)
      prepared = { id: next.id, answers }
    }
    catch {
      // Offline or refused: the prompt still shows, without answers.
      if (prepared?.id !== next.id) prepared = { id: next.id, answers: [] }
    }
  }

  async function poll() {
    try {
      const list = await $fetch<PublicChallengeList>('/api/challenges', { query: keyQuery, retry: 0, timeout: 15_000 })
      challenges.value = list.items
      await prepare()
    }
    catch { /* offline: the prompts already held stay */ }
  }
  useScreenPoll(poll, CHALLENGES_POLL_MS, every > 0)

  const interlude: SlideshowInterlude = {
    every,
    take() {
      const next = dueNext()
      if (!next) return null
      const answers = prepared?.id === next.id ? prepared.answers : []
      lastShownId = next.id
      onScreen.value = next
      void prepare()
      return { id: cardIdOf(next.id), holdMs: challengeHoldMs(next.text), then: answers }
    },
  }

  /** The challenge whose card has `id` (the slideshow's interlude on screen), or null. */
  const challenge = (id: string | null) => (onScreen.value && id === cardIdOf(onScreen.value.id) ? onScreen.value : null)

  return { interlude, challenge }
}
