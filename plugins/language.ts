import type { Language } from '#shared/enums'
import { pickLanguage } from '#shared/i18n/locale'
import type { PublicEventInfo } from '#shared/schemas/event'
import { isSlideshowQuery } from '#shared/slideshow'

const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/')

/** How long a page waits for the event's language before it speaks the default one. */
const EVENT_LANGUAGE_TIMEOUT_MS = 3000

/**
 * Picks the language of the page before anything renders (shared/i18n/locale.ts says in which
 * order), loads its texts and hands it to @nuxtjs/i18n, whose locale gives `<html lang>`. The
 * server's pick travels in the payload, so hydration speaks the language the HTML was written in;
 * pages the server does not render (the admin, the offline shell) pick in the browser.
 */
export default defineNuxtPlugin({
  name: 'language',
  dependsOn: ['i18n:plugin:route-locale-detect'],
  async setup(nuxtApp) {
    const url = useRequestURL()
    const picked = useState<Language | null>('language', () => null)
    const { chosen, apply } = useLanguage()
    const fetchEvent = useRequestFetch()

    if (!picked.value) {
      const room = url.pathname === '/galeria' && isSlideshowQuery(Object.fromEntries(url.searchParams))
      picked.value = await pickLanguage({
        chosen: chosen.value,
        query: url.searchParams.get('lang'),
        acceptLanguage: import.meta.server ? useRequestHeaders(['accept-language'])['accept-language'] : navigator.languages.join(','),
        room,
        // Bounded: the venue screen's offline shell asks too, and a network that hangs must not
        // hold its first render (it speaks the default language then).
        eventLanguage: () => fetchEvent<PublicEventInfo>('/api/event', { timeout: EVENT_LANGUAGE_TIMEOUT_MS, retry: 0 }).then(event => event.language, () => null),
      })
    }
    await nuxtApp.runWithContext(() => apply(picked.value!, isAdminPath(url.pathname)))

    // An admin page reached from a guest page needs the admin's texts too, in the same language.
    addRouteMiddleware('admin-texts', async (to) => {
      if (isAdminPath(to.path)) await loadLocaleMessages(picked.value!, true)
    }, { global: true })
  },
})
