/**
 * Control characters a guest's text may not carry (the server refuses them), newline apart: tabs
 * and the like arrive with a paste. Here without zod, so the upload page's first load can use it.
 */
// eslint-disable-next-line no-control-regex -- control characters are the point
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000B-\u001F\u007F]/g

/** Each control character (newline apart) becomes a space. */
export function blankControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ')
}

export function hasControlCharacters(text: string): boolean {
  return blankControlCharacters(text) !== text
}
