/**
 * Text search over author and message, the same on both sides of the comparison: the stored
 * `search_text` column and the admin's `q` are folded alike, so the query stays a plain LIKE that
 * SQLite can run (its lower() and LIKE only know ASCII, so 'JOÃO' would never meet 'joão').
 */

/** Separates author from message in `search_text`; guest text can never contain it. */
export const SEARCH_FIELD_SEPARATOR = '\u001F'

/** Lower case, compatibility-decomposed, combining marks (accents, cedillas) removed. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    // toLowerCase may decompose again ('İ' → 'i' + U+0307): fold and strip after it too.
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
}

/** The value of the `search_text` column for an upload. */
export function searchTextOf(author: string, message: string): string {
  return `${foldForSearch(author)}${SEARCH_FIELD_SEPARATOR}${foldForSearch(message)}`
}

/** The escape character used with LIKE … ESCAPE (see `containsPattern`). */
export const LIKE_ESCAPE = '\\'

/**
 * A LIKE pattern matching `query` anywhere, as plain text: `%` and `_` typed by the admin are
 * escaped, so they match themselves instead of acting as wildcards. Control characters (the field
 * separator among them) are dropped so a query cannot match across author and message.
 */
export function containsPattern(query: string): string {
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  const folded = foldForSearch(query).replace(/[\u0000-\u001F\u007F]/g, '')
  return `%${folded.replace(/[\\%_]/g, ch => LIKE_ESCAPE + ch)}%`
}
