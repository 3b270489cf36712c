/**
 * Keyset cursor over (createdAt, id), newest first: the position after the last item of a page.
 * Opaque to clients (base64url), strict when read back: anything that is not exactly what
 * `encodeUploadCursor` makes is refused rather than guessed at.
 */
export interface UploadCursor {
  createdAt: Date
  id: string
}

const PAYLOAD = /^(\d{1,15})\.([\w-]{1,64})$/

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(value: string): string | null {
  if (!/^[\w-]+$/.test(value) || value.length % 4 === 1) return null
  try {
    return atob(value.replace(/-/g, '+').replace(/_/g, '/'))
  }
  catch {
    return null
  }
}

export function encodeUploadCursor(position: { createdAt: Date, id: string }): string {
  return toBase64Url(`${position.createdAt.getTime()}.${position.id}`)
}

/** The position, or null when the value is not a cursor this service made. */
export function decodeUploadCursor(value: string): UploadCursor | null {
  const payload = fromBase64Url(value)
  const match = payload === null ? null : PAYLOAD.exec(payload)
  if (!match) return null
  const createdAt = new Date(Number(match[1]))
  if (Number.isNaN(createdAt.getTime())) return null
  const cursor = { createdAt, id: match[2]! }
  // One spelling per position: re-encoding must give back the exact input.
  return encodeUploadCursor(cursor) === value ? cursor : null
}

/** The admin list sorted by hearts (`sort=hearts`): a position is the count too, most hearted first. */
export interface HeartsCursor extends UploadCursor {
  hearts: number
}

const HEARTS_PAYLOAD = /^h(\d{1,9})\.(\d{1,15})\.([\w-]{1,64})$/

export function encodeHeartsCursor(position: HeartsCursor): string {
  return toBase64Url(`h${position.hearts}.${position.createdAt.getTime()}.${position.id}`)
}

/** The position, or null when the value is not a hearts cursor this service made (strict, as above). */
export function decodeHeartsCursor(value: string): HeartsCursor | null {
  const payload = fromBase64Url(value)
  const match = payload === null ? null : HEARTS_PAYLOAD.exec(payload)
  if (!match) return null
  const cursor = { hearts: Number(match[1]), createdAt: new Date(Number(match[2])), id: match[3]! }
  return encodeHeartsCursor(cursor) === value ? cursor : null
}
