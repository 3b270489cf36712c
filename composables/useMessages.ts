import type { Messages } from '#shared/messages/pt-BR'
import { followMessages, localeMessages } from '~/app-utils/locale-messages'

/**
 * The interface texts and their number and date formats, in the language the page speaks
 * (plugins/language.ts picks it). `t.section.key` read in a template follows a language switch.
 */
export function useMessages(): Messages {
  return followMessages(localeMessages().guest, 'guest')
}
