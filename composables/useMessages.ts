import { ptBR, type Messages } from '../shared/messages/pt-BR'

export { formatBytes, formatDuration, formatEventDate } from '../shared/messages/pt-BR'

/** The interface texts. One language today; the place to choose another tomorrow. */
export function useMessages(): Messages {
  return ptBR
}
