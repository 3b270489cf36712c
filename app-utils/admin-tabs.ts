/** The dashboard's sections, named in the address (`/admin?aba=evento`) so a link or a login redirect lands on the right one. */
export const ADMIN_TABS = ['moderacao', 'recados', 'comentarios', 'estatisticas', 'evento'] as const
export type AdminTab = typeof ADMIN_TABS[number]

export function adminTabOf(value: unknown): AdminTab {
  return ADMIN_TABS.includes(value as AdminTab) ? value as AdminTab : 'moderacao'
}

/** Each section's name in the admin's messages (`nav`), for the browser tab's title. */
export const ADMIN_TAB_NAV = { moderacao: 'moderation', recados: 'guestbook', comentarios: 'comments', estatisticas: 'stats', evento: 'event' } as const satisfies Record<AdminTab, string>
