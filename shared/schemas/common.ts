import { z } from 'zod'

/** Ids are opaque URL-safe strings; anything else in an `:id` position is a 404. */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/)

export const idParamsSchema = z.object({ id: idSchema })

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000B-\u001F\u007F]/
/** Half of a surrogate pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Text typed by a guest: trimmed, valid Unicode, no control characters other than newlines. */
export function guestText(max: number, min = 0) {
  return z.string().trim().min(min).max(max)
    .refine(s => !CONTROL_CHARACTERS.test(s), 'control characters are not allowed')
    .refine(s => !LONE_SURROGATE.test(s), 'not valid Unicode')
}

/** A query value that must appear at most once (`?a=1&a=2` is a bad request, not a silent pick). */
export function singleQuery<T extends z.ZodType>(schema: T) {
  return z.preprocess(v => (Array.isArray(v) ? Symbol.for('repeated') : v), schema)
}
