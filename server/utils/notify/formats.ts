import { createHmac } from 'node:crypto'
import type { NotifyFormat, NotifyKind } from '#shared/enums'

export interface NotifyItem {
  id: string
  kind: NotifyKind
  author: string
  thumbUrl: string | null
}

/** What one delivery says, whatever its format. */
export interface NotifyMessage {
  pending: number
  items: NotifyItem[]
  title: string
  body: string
  adminUrl: string
}

export const NOTIFY_TYPE = 'event-media.new'

/**
 * A header value may only hold ASCII: a title with "João" or "aprovação" travels as an RFC 2047
 * encoded word, which ntfy decodes.
 */
export function headerText(text: string): string {
  if (/^[\x20-\x7E]*$/.test(text)) return text
  return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`
}

/** The body's HMAC-SHA256 under the webhook secret, as X-Event-Media-Signature carries it. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`
}

/** The request a receiver gets: a signed JSON webhook, or the text an ntfy server shows as is. */
export function notifyRequest(format: NotifyFormat, secret: string, message: NotifyMessage): { headers: Record<string, string>, body: string } {
  if (format === 'ntfy') {
    return {
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Title': headerText(message.title), 'Click': message.adminUrl },
      body: message.body,
    }
  }
  const body = JSON.stringify({
    type: NOTIFY_TYPE,
    pending: message.pending,
    items: message.items.map(({ id, kind, author, thumbUrl }) => ({ id, kind, author, thumbUrl })),
    adminUrl: message.adminUrl,
  })
  return { headers: { 'Content-Type': 'application/json', 'X-Event-Media-Signature': signature(secret, body) }, body }
}
