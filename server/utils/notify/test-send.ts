import type { NotifyTestResponse } from '#shared/schemas/notify'
import { getEventSettings } from '../event-settings'
import { invalidRequest } from '../http/errors'
import { adminUrl, deliver, pendingCount } from './batch'
import { pushToSubscriptions } from './push'
import { recordLastStatus } from './state'
import { testNotificationTexts } from './texts'

/** A test, now and once: to the receiver (its answer is the admin's) and to the admin's devices. */
export async function sendTestNotification(): Promise<NotifyTestResponse> {
  const settings = await getEventSettings()
  if (!settings.notifyUrl) throw invalidRequest([{ path: ['notifyUrl'], code: 'custom', message: 'no notifyUrl is set' }])
  const message = { pending: await pendingCount(), items: [], ...testNotificationTexts(settings.language, settings.coupleNames), adminUrl: adminUrl() }
  const [outcome] = await Promise.all([deliver(settings, message), pushToSubscriptions(message)])
  await recordLastStatus({ at: new Date().toISOString(), status: outcome.status, error: outcome.error, attempt: 1, items: 0 })
  return outcome.error === null ? { status: outcome.status } : { status: outcome.status, error: outcome.error }
}
