/** The dashboard's sections, named in the address (`/admin?aba=evento`) so a link or a login redirect lands on the right one. */
export const ADMIN_TABS = ['moderacao', 'recados', 'estatisticas', 'evento'] as const
export type AdminTab = typeof ADMIN_TABS[number]

export function adminTabOf(value: unknown): AdminTab {
  return ADMIN_TABS.includes(value as AdminTab) ? value as AdminTab : 'moderacao'
}
