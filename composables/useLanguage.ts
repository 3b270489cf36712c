import { parse, serialize } from 'cookie-es'
import type { Language } from '#shared/enums'
import { LANGUAGE_COOKIE } from '#shared/i18n/locale'
import { loadLocaleMessages } from '~/app-utils/locale-messages'

const A_YEAR = 365 * 24 * 60 * 60

/**
 * The language this device chose with the switcher, kept in a cookie so the next server render
 * speaks it too. Read only when a page has to pick (plugins/language.ts): a hydrating page has the
 * server's pick in its payload, and in a browser each read of `document.cookie` is a synchronous
 * trip to the network process (Nuxt's useCookie read it on every call, three times per load).
 */
function chosenLanguage(): string | null {
  const cookies = import.meta.server ? useRequestHeaders(['cookie']).cookie : document.cookie
  return parse(cookies ?? '')[LANGUAGE_COOKIE] ?? null
}

/**
 * The language the page speaks, and the switcher's way to change it: the new texts load, then
 * `<html lang>` (app.vue) and every `t.section.key` on screen follow together.
 */
export function useLanguage() {
  const language = useState<Language>('language')

  async function apply(next: Language, withAdmin = false) {
    await loadLocaleMessages(next, withAdmin)
    language.value = next
  }

  /** The switcher's pick, in the browser. */
  async function choose(next: Language) {
    document.cookie = serialize(LANGUAGE_COOKIE, next, { maxAge: A_YEAR, sameSite: 'lax', path: '/' })
    await apply(next)
  }

  return { language: readonly(language), choose, apply, chosen: chosenLanguage }
}
