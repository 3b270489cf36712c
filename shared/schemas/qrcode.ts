import { z } from './zod'
import { LANGUAGES } from '#shared/enums'
import { singleQuery } from '#shared/schemas/common'

export const QR_FORMATS = ['png', 'svg', 'pdf'] as const
export type QrFormat = typeof QR_FORMATS[number]

/** Longest `url` override accepted (api-contract.md, QR code). */
export const QR_URL_MAX_LENGTH = 2048

/**
 * GET /api/qrcode. `url` is only a string here: whether it may be encoded is decided on the server
 * (it depends on the request's origin and the admin session) and answers URL_NOT_ALLOWED, not
 * INVALID_REQUEST.
 */
export const qrcodeQuerySchema = z.strictObject({
  format: singleQuery(z.enum(QR_FORMATS)).default('png'),
  url: singleQuery(z.string()).optional(),
  /** The card's language (the event's when absent); given, the encoded address carries it as `?lang=`. */
  lang: singleQuery(z.enum(LANGUAGES)).optional(),
})
