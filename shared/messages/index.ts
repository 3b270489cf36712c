/**
 * Each language's texts as a chunk of its own, loaded when a page needs it: a guest's phone
 * downloads the one language it speaks. The files themselves are typed TS objects (functions
 * included), so they are imported as modules rather than handed to vue-i18n.
 */
import type { Language } from '#shared/enums'
import type { AdminMessages } from '#shared/messages/admin.pt-BR'
import type { Messages } from '#shared/messages/pt-BR'

export const guestMessages: Record<Language, () => Promise<Messages>> = {
  'pt-BR': () => import('#shared/messages/pt-BR').then(m => m.ptBR),
  'en': () => import('#shared/messages/en').then(m => m.en),
  'es': () => import('#shared/messages/es').then(m => m.es),
}

export const adminMessages: Record<Language, () => Promise<AdminMessages>> = {
  'pt-BR': () => import('#shared/messages/admin.pt-BR').then(m => m.adminPtBR),
  'en': () => import('#shared/messages/admin.en').then(m => m.adminEn),
  'es': () => import('#shared/messages/admin.es').then(m => m.adminEs),
}

/** Each language's name as its speakers write it: the switcher lists them the same on every page. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'pt-BR': 'Português',
  'en': 'English',
  'es': 'Español',
}
