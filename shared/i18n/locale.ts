import { LANGUAGES, type Language } from '#shared/enums'

export const DEFAULT_LANGUAGE: Language = 'pt-BR'

/** The cookie that remembers a language picked with the switcher on this device. */
export const LANGUAGE_COOKIE = 'lang'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * One of our languages for a tag a person or a browser wrote: `en-GB` is `en`, `pt` and `pt-PT`
 * are the Portuguese we have, `es-MX` is `es`. Null for anything else (`fr`, `*`, garbage).
 */
export function languageOfTag(tag: string): Language | null {
  const lower = tag.trim().toLowerCase()
  const exact = LANGUAGES.find(language => language.toLowerCase() === lower)
  if (exact) return exact
  const primary = lower.split('-')[0]
  return LANGUAGES.find(language => language.toLowerCase().split('-')[0] === primary) ?? null
}

/**
 * The first of our languages in an `Accept-Language` header, by the browser's own weights
 * (`q=0` means "not this one"); null when it asks for none of them.
 */
export function languageOfAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null
  const ranked = header.split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';')
      const q = params.map(p => p.trim()).find(p => p.startsWith('q='))
      return { tag: tag.trim(), weight: q ? Number(q.slice(2)) : 1, index }
    })
    .filter(entry => entry.tag && Number.isFinite(entry.weight) && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  for (const { tag } of ranked) {
    const language = languageOfTag(tag)
    if (language) return language
  }
  return null
}

export interface LanguageClues {
  /** The switcher's choice remembered on this device (the cookie). */
  chosen?: string | null
  /** `?lang=xx` in the address (a QR code can carry it). */
  query?: unknown
  /** What the browser asks for: the `Accept-Language` header, or `navigator.languages` joined. */
  acceptLanguage?: string | null
  /** The event's language (GET /api/event); asked for only when nothing before it decides. */
  eventLanguage?: () => Language | null | undefined | Promise<Language | null | undefined>
  /** The venue screen speaks to the room: the address or the event decide, not the device. */
  room?: boolean
}

/**
 * Which language a page speaks: the choice made on this device, then `?lang=`, then the
 * browser's languages, then the event's; the venue screen skips the device's two.
 */
export async function pickLanguage(clues: LanguageClues): Promise<Language> {
  if (!clues.room && isLanguage(clues.chosen)) return clues.chosen
  const query = Array.isArray(clues.query) ? clues.query[0] : clues.query
  if (typeof query === 'string' && languageOfTag(query)) return languageOfTag(query)!
  if (!clues.room) {
    const browser = languageOfAcceptLanguage(clues.acceptLanguage)
    if (browser) return browser
  }
  const event = await clues.eventLanguage?.()
  return isLanguage(event) ? event : DEFAULT_LANGUAGE
}
