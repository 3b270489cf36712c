import type { Language } from '#shared/enums'
import { pickLanguage } from '#shared/i18n/locale'
import type { PublicEventInfo } from '#shared/schemas/event'
import { isSlideshowQuery } from '#shared/slideshow-address'
import { loadLocaleMessages } from '~/app-utils/locale-messages'

const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/')

/** Longer than the service worker's wait before it answers from its saved copy (4 s). */
const EVENT_LANGUAGE_TIMEOUT_MS = 6000

/**
 * Picks the language of the page before anything renders (shared/i18n/locale.ts says in which
 * order) and loads its texts; app.vue writes it as `<html lang>`. The
 * server's pick travels in the payload, so hydration speaks the language the HTML was written in;
 * pages the server does not render (the admin, the offline shell) pick in the browser.
 */
export default defineNuxtPlugin({
  name: 'language',
  async setup(nuxtApp) {
    const url = useRequestURL()
    const picked = useState<Language | null>('language', () => null)
    const { chosen, apply } = useLanguage()
    const fetchEvent = useRequestFetch()

    const eventLanguage = () => fetchEvent<PublicEventInfo>('/api/event', { timeout: EVENT_LANGUAGE_TIMEOUT_MS, retry: 0 }).then(event => event.language, () => null)
    // Whether the pick fell through to the event's language (nothing on the device or the address decided).
    let needsEvent = false
    if (!picked.value) {
      const room = url.pathname === '/galeria' && isSlideshowQuery(Object.fromEntries(url.searchParams))
      picked.value = await pickLanguage({
        chosen: chosen(),
        query: url.searchParams.get('lang'),
        acceptLanguage: import.meta.server ? useRequestHeaders(['accept-language'])['accept-language'] : navigator.languages.join(','),
        room,
        // The server asks (a call within itself). A browser does not wait for it: the venue
        // screen's offline shell picks here too, and on a network that hangs the first render
        // must not wait for the event; it speaks the default language until the answer comes.
        eventLanguage: () => {
          needsEvent = true
          return import.meta.server ? eventLanguage() : null
        },
      })
    }
    await nuxtApp.runWithContext(() => apply(picked.value!, isAdminPath(url.pathname)))
    // The language's texts are a chunk of their own. Named among the render's modules, they are
    // preloaded with the page's scripts (build:manifest in nuxt.config.ts hints no other
    // language), instead of hydration asking for them one round trip later.
    if (import.meta.server) nuxtApp.ssrContext?.modules?.add(`shared/messages/${picked.value}.ts`)
    if (import.meta.client && needsEvent) {
      void eventLanguage().then(async (language) => {
        if (!language || language === picked.value) return
        picked.value = language
        await nuxtApp.runWithContext(() => apply(language, isAdminPath(url.pathname)))
      })
    }

    // An admin page reached from a guest page needs the admin's texts too, in the same language.
    addRouteMiddleware('admin-texts', async (to) => {
      if (isAdminPath(to.path)) await loadLocaleMessages(picked.value!, true)
    }, { global: true })
  },
})
