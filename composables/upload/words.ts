import { blankControlCharacters } from '#shared/control-characters'

/** A picked file the queue would not take, and why, in the guest's language. */
export interface RefusedFile { name: string, reason: string }

/** Guest text as the server accepts it: control characters (tabs from a paste…) become spaces. */
export function cleanText(value: string, max: number): string {
  return blankControlCharacters(value).trim().slice(0, max)
}
