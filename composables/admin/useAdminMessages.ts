import type { AdminMessages } from '#shared/messages/admin.pt-BR'
import { followMessages, localeMessages } from '~/app-utils/locale-messages'

/** The admin's texts in the language the page speaks; `t.section.key` follows a language switch. */
export function useAdminMessages(): AdminMessages {
  return followMessages(localeMessages().admin, 'admin')
}
