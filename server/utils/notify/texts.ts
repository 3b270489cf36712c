import type { Language, NotifyKind } from '#shared/enums'
import { NOTIFY_KINDS } from '#shared/enums'
import { adminEn } from '#shared/messages/admin.en'
import { adminEs } from '#shared/messages/admin.es'
import { adminPtBR } from '#shared/messages/admin.pt-BR'

const NOTIFICATION_TEXTS = { 'pt-BR': adminPtBR.notifications, 'en': adminEn.notifications, 'es': adminEs.notifications }

/**
 * What the couple's phone shows for a batch, in the event's language: "3 novas fotos esperam
 * aprovação", "2 novas fotos e 1 novo recado chegaram".
 */
export function notificationTexts(language: Language, coupleNames: string, items: { kind: NotifyKind, pending: boolean }[]): { title: string, body: string } {
  const texts = NOTIFICATION_TEXTS[language]
  const parts = NOTIFY_KINDS
    .map(kind => ({ kind, count: items.filter(item => item.kind === kind).length }))
    .filter(part => part.count > 0)
    .map(part => texts.kinds[part.kind]!(part.count))
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} ${texts.and} ${parts.at(-1)}` : parts[0] ?? ''
  const verb = items.every(item => item.pending) ? texts.waiting(items.length) : texts.arrived(items.length)
  return { title: texts.pushTitle(coupleNames), body: `${list} ${verb}` }
}

export function testNotificationTexts(language: Language, coupleNames: string): { title: string, body: string } {
  const texts = NOTIFICATION_TEXTS[language]
  return { title: texts.pushTitle(coupleNames), body: texts.testBody }
}
