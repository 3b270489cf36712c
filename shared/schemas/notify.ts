import { z } from './zod'
import { NOTIFY_FORMATS, NOTIFY_ON } from '#shared/enums'
import { isForbiddenAddress } from '#shared/notify/forbidden-address'

/** Longest notifyUrl and push endpoint the server keeps. */
export const NOTIFY_URL_MAX_LENGTH = 2048

/**
 * The couple's receiver: any http(s) URL but a literal link-local one (cloud metadata). A name is
 * checked again at each send, on the addresses it resolves to then.
 */
export const notifyUrlSchema = z.url({ protocol: /^https?$/ }).max(NOTIFY_URL_MAX_LENGTH)
  // Zod runs a refinement even after the URL check failed: only a URL is looked into.
  .refine(url => !URL.canParse(url) || !isForbiddenAddress(new URL(url).hostname), 'link-local and cloud metadata addresses are refused')

export const notifyFormatSchema = z.enum(NOTIFY_FORMATS)
export const notifyOnSchema = z.enum(NOTIFY_ON)

/** POST /api/admin/push/subscriptions: the browser's PushSubscription, as its toJSON() gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(NOTIFY_URL_MAX_LENGTH),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.base64url().min(80).max(100),
    auth: z.base64url().min(16).max(32),
  }),
})
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>

/** DELETE /api/admin/push/subscriptions. */
export const pushUnsubscribeSchema = z.strictObject({ endpoint: z.string().min(1).max(NOTIFY_URL_MAX_LENGTH) })

/** The last delivery to notifyUrl, as the admin's Event tab shows it. */
export interface NotifyLastStatus {
  at: string
  /** The receiver's HTTP status, or null when none came (refused address, network error, timeout). */
  status: number | null
  error: string | null
  /** Which try of its batch this was (1 to 5). */
  attempt: number
  items: number
}

/** POST /api/admin/event/notify-test. */
export interface NotifyTestResponse { status: number | null, error?: string }
