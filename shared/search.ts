/**
 * Text search over author and message, the same on both sides of the comparison: the stored
 * `search_text` column and the admin's `q` are folded alike, so the query stays a plain substring
 * test, answered by the trigram index (`uploads_fts`, migration 0006) or, for queries too short
 * for it, by a LIKE that SQLite can run (its lower() and LIKE only know ASCII, so 'JOÃO' would
 * never meet 'joão').
 */

/** Separates author from message in `search_text`; guest text can never contain it. */
export const SEARCH_FIELD_SEPARATOR = '\u001F'

/** The index's tokens are trigrams: a query of fewer characters cannot be looked up in it. */
export const SEARCH_INDEX_MIN_CHARS = 3

/**
 * Counting matches stops here: a searched list whose matches number more answers this `total`
 * with `totalIsLowerBound: true`, so that counting costs the same at 10,000 uploads as at 100,000.
 */
export const SEARCH_TOTAL_LIMIT = 1000

/**
 * A query too short for the index is a LIKE over the newest this-many uploads of the list only:
 * the bound on what one keystroke of an admin's typing may cost.
 */
export const SHORT_SEARCH_WINDOW = 10_000

/**
 * Lower case, compatibility-decomposed, combining marks (accents, cedillas) removed. Final sigma
 * is folded to σ and U+FFFE/U+FFFF to U+FFFD because the index's tokenizer reads them so: folded
 * text then looks the same to the index and to LIKE (tests/unit/admin-search.test.ts checks
 * every code point against the tokenizer).
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    // toLowerCase may decompose again ('İ' → 'i' + U+0307): fold and strip after it too.
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ς/g, 'σ')
    .replace(/[\uFFFE\uFFFF]/g, '\uFFFD')
}

/** The value of the `search_text` column for an upload. */
export function searchTextOf(author: string, message: string): string {
  return `${foldForSearch(author)}${SEARCH_FIELD_SEPARATOR}${foldForSearch(message)}`
}

/**
 * The admin's query as it is looked for: folded, with control characters (the field separator
 * among them) dropped so that it cannot match across author and message.
 */
export function foldQuery(query: string): string {
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  return foldForSearch(query).replace(/[\u0000-\u001F\u007F]/g, '')
}

/** The escape character used with LIKE … ESCAPE (see `containsPattern`). */
export const LIKE_ESCAPE = '\\'

/**
 * A LIKE pattern matching `query` anywhere, as plain text: `%` and `_` typed by the admin are
 * escaped, so they match themselves instead of acting as wildcards.
 */
export function containsPattern(query: string): string {
  return `%${foldQuery(query).replace(/[\\%_]/g, ch => LIKE_ESCAPE + ch)}%`
}

/**
 * The FTS5 query matching `query` anywhere, as plain text: one quoted phrase (inner quotes
 * doubled), so nothing the admin types is read as query syntax; with the trigram tokenizer a
 * phrase is a substring. Null when the query is too short for the index.
 */
export function trigramPhrase(query: string): string | null {
  const folded = foldQuery(query)
  if ([...folded].length < SEARCH_INDEX_MIN_CHARS) return null
  return `"${folded.replace(/"/g, '""')}"`
}
