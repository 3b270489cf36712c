import { z } from './zod'
import { AUTHOR_MAX_LENGTH } from '#shared/limits'
import { hasControlCharacters } from '#shared/control-characters'

/** Ids are opaque URL-safe strings; anything else in an `:id` position is a 404. */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/)

export const idParamsSchema = z.object({ id: idSchema })

/** `PUT …/order` of an admin's ordered list (moments, challenges): every item's id once, in the new order. */
export const orderSchema = z.strictObject({
  ids: z.array(idSchema).max(500),
})

/** Half of a surrogate pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The tag letters of a flag's subdivision code, e.g. `gbsct` → U+E0067 U+E0062 U+E0073 U+E0063 U+E0074. */
const tags = (code: string) => [...code].map(c => String.fromCodePoint(0xE0000 + c.charCodeAt(0))).join('')

/**
 * The emoji flags made of tags that platforms draw (Unicode's recommended set): England, Scotland,
 * Wales. Any other run of tags after 🏴 draws as a plain black flag and hides its tags: 🏴 followed
 * by sixty tags and U+E007F is an invisible sixty-letter message, so only these are kept whole.
 */
const TAG_FLAGS = ['gbeng', 'gbsct', 'gbwls'].map(code => `\u{1F3F4}${tags(code)}\u{E007F}`).join('|')

/**
 * Invisible characters, which change how the text around them is shown, or hide text, without
 * showing themselves:
 * - format characters (Unicode category Cf): bidi embeddings, overrides and isolates
 *   (U+202A–U+202E, U+2066–U+2069) make `photo<RLO>gpj.exe` read as `photoexe.jpg` in the admin
 *   and the CSV manifest; direction marks (U+200E, U+200F, U+061C), zero-width spaces, soft hyphens,
 *   BOMs and tag characters (U+E0000–E007F) hide text or make two equal-looking names differ.
 *   Kept: the joiners U+200C and U+200D, which Persian, Indic scripts and emoji sequences need,
 *   and the tags of the flags above.
 * - variation selectors beyond the one a character can take: a selector only picks a glyph for
 *   the character before it, so a run of them (the 256 of U+FE00–FE0F and U+E0100–E01EF encode a
 *   byte each) is data nobody sees. Kept: one selector right after a character that is not itself
 *   invisible, and for U+E0100–E01EF (ideographic variation sequences) only after a Han ideograph.
 * Order matters: each alternative is tried at a position before the next.
 */
const INVISIBLE = new RegExp([
  `(${TAG_FLAGS})`,
  '(\\p{Script=Han}[\\u{E0100}-\\u{E01EF}])',
  '([^\\p{Variation_Selector}\\p{Cf}\\u{E0100}-\\u{E01EF}][\\u{FE00}-\\u{FE0F}\\u{180B}-\\u{180D}\\u{180F}])',
  '[^\\P{Cf}\\u200C\\u200D]',
  '\\p{Variation_Selector}',
].join('|'), 'gu')

/** Removes the invisible characters above; a drawn flag and a single variation selector are left whole. */
export function stripFormatCharacters(text: string): string {
  return text.replace(INVISIBLE, (_match, flag?: string, ideograph?: string, selected?: string) => flag ?? ideograph ?? selected ?? '')
}

/**
 * Text typed by a guest: format characters stripped (never refused: a phone keyboard may insert
 * direction marks the guest cannot see, let alone remove), then trimmed, valid Unicode, no control
 * characters other than newlines.
 */
export function guestText(max: number, min = 0) {
  return checkedGuestText(z.string().overwrite(stripFormatCharacters), max, min)
}

function checkedGuestText(cleaned: z.ZodString, max: number, min: number) {
  return cleaned.trim().min(min).max(max)
    .refine(s => !hasControlCharacters(s), 'control characters are not allowed')
    .refine(s => !LONE_SURROGATE.test(s), 'not valid Unicode')
}

/**
 * Every character that ends a line or a paragraph (LF, CR, CR LF, vertical tab, form feed, NEL,
 * U+2028, U+2029), with the spaces around it: a run of them is one break.
 */
const LINE_BREAKS = /[\s\u0085]*[\n\v\f\r\u0085\u2028\u2029][\s\u0085]*/gu

/** Folds each run of line breaks, with the spaces around it, to one space. */
export function foldLineBreaks(text: string): string {
  return text.replace(LINE_BREAKS, ' ')
}

/**
 * Who sent something (an upload, a written or spoken message, whatever guests sign later): a name
 * is one line wherever it is shown (a gallery caption, the admin's list, the book, the CSV), so
 * line breaks are folded to a space rather than refused (a pasted name may carry one the guest
 * cannot see). Otherwise guest text: format characters stripped, trimmed, at most
 * AUTHOR_MAX_LENGTH characters, empty allowed.
 */
export const authorNameSchema = checkedGuestText(z.string().overwrite(stripFormatCharacters).overwrite(foldLineBreaks), AUTHOR_MAX_LENGTH, 0)

/** The query of an endpoint that takes none: any parameter is a bad request (400), never ignored. */
export const emptyQuerySchema = z.strictObject({})

/** A query value that must appear at most once (`?a=1&a=2` is a bad request, not a silent pick). */
export function singleQuery<T extends z.ZodType>(schema: T) {
  return z.preprocess(v => (Array.isArray(v) ? Symbol.for('repeated') : v), schema)
}
