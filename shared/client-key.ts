/**
 * A phone queue's key for a file, sent with init so that init tried again answers the same upload:
 * a UUID, or 16 to 64 letters, digits, `-` and `_` (a browser without randomUUID).
 */
export const CLIENT_KEY_PATTERN = /^[\w-]{16,64}$/
