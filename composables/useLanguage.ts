import type { Language } from '#shared/enums'
import { LANGUAGE_COOKIE } from '#shared/i18n/locale'
import { loadLocaleMessages } from '~/utils/locale-messages'

const A_YEAR = 365 * 24 * 60 * 60

/**
 * The language the page speaks, and the switcher's way to change it: the new texts load, then
 * `<html lang>` (app.vue) and every `t.section.key` on screen follow together.
 * The choice is kept in a cookie so the next server render speaks it too.
 */
export function useLanguage() {
  const language = useState<Language>('language')
  const cookie = useCookie<string | null>(LANGUAGE_COOKIE, { maxAge: A_YEAR, sameSite: 'lax', path: '/' })

  async function apply(next: Language, withAdmin = false) {
    await loadLocaleMessages(next, withAdmin)
    language.value = next
  }

  async function choose(next: Language) {
    cookie.value = next
    await apply(next)
  }

  return { language: readonly(language), choose, apply, chosen: readonly(cookie) }
}
