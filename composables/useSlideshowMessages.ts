import type { GuestbookItem, GuestbookPage } from '#shared/schemas/guestbook'
import type { SlideshowInterlude } from './slideshow'

/** The newest written messages the screen rotates through. */
const MESSAGES_LIMIT = 50
const MESSAGES_POLL_MS = 30_000
/** A message card stays this long at least, plus reading time for its length, up to the most. */
const MESSAGE_MIN_MS = 8000
const MESSAGE_MS_PER_CHARACTER = 60
const MESSAGE_MAX_MS = 30_000

/** A voice card heard aloud stays for the whole recording and this much after it. */
const VOICE_AFTER_MS = 2000

/** How long a message stays on the big screen: long ones are held longer, to be read from the back of the hall. */
export function messageHoldMs(text: string): number {
  return Math.min(MESSAGE_MAX_MS, MESSAGE_MIN_MS + text.length * MESSAGE_MS_PER_CHARACTER)
}

/**
 * How long a voice message's card stays: a silent card as long as a short written one; one that
 * plays, its whole recording (a guest's voice is not cut off) and a moment after.
 */
export function voiceHoldMs(durationSec: number | null, aloud: boolean): number {
  if (!aloud || !durationSec) return MESSAGE_MIN_MS
  return Math.max(MESSAGE_MIN_MS, Math.ceil(durationSec * 1000) + VOICE_AFTER_MS)
}

/**
 * The guestbook on the venue screen: approved written and voice messages, polled on their own and
 * handed to the slideshow as an interlude every `every` slides, newest unseen first, then round
 * again. A voice message is a card (author, length, a waveform); it is heard only when `aloud()`
 * (the couple turned the screen's sound on, and someone tapped the screen, as browsers require).
 * The venue screen's key lets it read a closed or PIN-guarded guestbook, as it does the gallery.
 */
export function useSlideshowMessages(every: number, screenKey?: string, aloud: () => boolean = () => false) {
  const messages = shallowRef<GuestbookItem[]>([])
  const shownId = ref<string | null>(null)
  const seen = new Set<string>()

  async function poll() {
    try {
      const page = await $fetch<GuestbookPage>('/api/guestbook', { query: { limit: MESSAGES_LIMIT, ...(screenKey ? { screenKey } : {}) }, retry: 0, timeout: 15_000 })
      messages.value = page.items.filter(item => (item.type === 'text' ? !!item.text : !!item.audioUrl))
    }
    catch { /* offline: the messages already held stay */ }
  }
  useScreenPoll(poll, MESSAGES_POLL_MS, every > 0)

  const interlude: SlideshowInterlude = {
    every,
    take() {
      const all = messages.value
      if (all.length === 0) return null
      let next = all.find(item => !seen.has(item.id))
      if (!next) {
        seen.clear()
        next = all[0]!
      }
      seen.add(next.id)
      shownId.value = next.id
      return { id: next.id, holdMs: next.type === 'audio' ? voiceHoldMs(next.durationSec, aloud()) : messageHoldMs(next.text ?? '') }
    },
  }

  const message = (id: string | null) => messages.value.find(item => item.id === id) ?? null

  return { interlude, message }
}
