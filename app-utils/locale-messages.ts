import { shallowRef, type ShallowRef } from 'vue'
import type { Language } from '#shared/enums'
import type { AdminMessages } from '#shared/messages/admin.pt-BR'
import { adminMessages, guestMessages } from '#shared/messages'
import type { Messages } from '#shared/messages/pt-BR'

/** The texts of the language a page speaks, swapped as a whole when the language changes. */
export interface LocaleMessages {
  guest: ShallowRef<Messages | null>
  admin: ShallowRef<AdminMessages | null>
}

const create = (): LocaleMessages => ({ guest: shallowRef(null), admin: shallowRef(null) })

/*
 * A browser runs one app (and the service worker none), so its texts live with this module, where
 * code that runs long after setup (the upload queue's checks, after an await) still finds them. A
 * server renders many requests at once, each in its own language: there they live on the request's app.
 */
const inBrowser = import.meta.server ? null : create()

export function localeMessages(): LocaleMessages {
  if (inBrowser) return inBrowser
  const app = useNuxtApp() as ReturnType<typeof useNuxtApp> & { _localeMessages?: LocaleMessages }
  return (app._localeMessages ??= create())
}

/** Hands over guest texts already at hand: the service worker (which has no app) and unit tests. */
export function provideGuestMessages(messages: Messages): void {
  localeMessages().guest.value = messages
}

/** Loads a language's guest texts (and the admin's, when asked or already in use) before switching both at once. */
export async function loadLocaleMessages(language: Language, withAdmin: boolean): Promise<void> {
  const state = localeMessages()
  const admin = withAdmin || state.admin.value !== null
  const [guest, adminTexts] = await Promise.all([guestMessages[language](), admin ? adminMessages[language]() : null])
  state.guest.value = guest
  if (adminTexts) state.admin.value = adminTexts
}

/**
 * An object that reads through to whatever `source` holds now: `t.section.key` in a template or
 * a computed tracks the language, and a switch re-renders without the component asking again.
 */
export function followMessages<T extends object>(source: ShallowRef<T | null>, what: string): T {
  const current = (): T => {
    if (!source.value) throw new Error(`the ${what} texts are used before the language plugin loaded them`)
    return source.value
  }
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key)
      return descriptor && { ...descriptor, configurable: true }
    },
  })
}
