import { ptBR, type Messages } from '#shared/messages/pt-BR'

/** The interface texts and their number and date formats. One language today; the place to choose another tomorrow. */
export function useMessages(): Messages {
  return ptBR
}
