import { z } from 'zod'

/** Ids are opaque URL-safe strings; anything else in an `:id` position is a 404. */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/)

export const idParamsSchema = z.object({ id: idSchema })

/** Text typed by a guest: trimmed, control characters other than newlines refused. */
export function guestText(max: number) {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  return z.string().trim().max(max).refine(s => !/[\u0000-\u0009\u000B-\u001F\u007F]/.test(s), 'control characters are not allowed')
}

/** A query value that must appear at most once (`?a=1&a=2` is a bad request, not a silent pick). */
export function singleQuery<T extends z.ZodType>(schema: T) {
  return z.preprocess(v => (Array.isArray(v) ? Symbol.for('repeated') : v), schema)
}
