import { z } from 'zod'

/** Ids are opaque URL-safe strings; anything else in an `:id` position is a 404. */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/)

export const idParamsSchema = z.object({ id: idSchema })

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000B-\u001F\u007F]/
/** Half of a surrogate pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Invisible format characters (Unicode category Cf), which change how the text around them is
 * shown without showing themselves: bidi embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) make `photo<RLO>gpj.exe` read as `photoexe.jpg` in the admin and the CSV manifest;
 * direction marks (U+200E, U+200F, U+061C), zero-width spaces, soft hyphens, BOMs and tag
 * characters hide text or make two equal-looking names differ. Kept: the joiners U+200C and
 * U+200D, which Persian, Indic scripts and emoji sequences need, and the tags inside an emoji flag
 * (🏴 then tag letters then U+E007F, as in the flags of England, Scotland and Wales).
 */
const FORMAT_CHARACTERS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[^\P{Cf}\u200C\u200D]/gu

/** Removes the format characters above; an emoji flag is left whole. */
export function stripFormatCharacters(text: string): string {
  return text.replace(FORMAT_CHARACTERS, (_match, flag: string | undefined) => flag ?? '')
}

/**
 * Text typed by a guest: format characters stripped (never refused: a phone keyboard may insert
 * direction marks the guest cannot see, let alone remove), then trimmed, valid Unicode, no control
 * characters other than newlines.
 */
export function guestText(max: number, min = 0) {
  return z.string().overwrite(stripFormatCharacters).trim().min(min).max(max)
    .refine(s => !CONTROL_CHARACTERS.test(s), 'control characters are not allowed')
    .refine(s => !LONE_SURROGATE.test(s), 'not valid Unicode')
}

/** A query value that must appear at most once (`?a=1&a=2` is a bad request, not a silent pick). */
export function singleQuery<T extends z.ZodType>(schema: T) {
  return z.preprocess(v => (Array.isArray(v) ? Symbol.for('repeated') : v), schema)
}
