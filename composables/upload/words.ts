/** A picked file the queue would not take, and why, in the guest's language. */
export interface RefusedFile { name: string, reason: string }

/** Guest text as the server accepts it: control characters (tabs from a paste…) become spaces. */
export function cleanText(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- the server refuses these; we replace them first
  return value.replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, ' ').trim().slice(0, max)
}
