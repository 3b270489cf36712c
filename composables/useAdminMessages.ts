import { adminPtBR, type AdminMessages } from '#shared/messages/admin.pt-BR'

/** The admin's texts. One language today; the place to choose another tomorrow. */
export function useAdminMessages(): AdminMessages {
  return adminPtBR
}
