/** Every machine code an error answer may carry in `data.code` (api-contract.md, Errors; docs/api.md). */
export const ErrorCode = {
  INVALID_REQUEST: 'INVALID_REQUEST',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  FORBIDDEN_ORIGIN: 'FORBIDDEN_ORIGIN',
  CHALLENGE_FAILED: 'CHALLENGE_FAILED',
  URL_NOT_ALLOWED: 'URL_NOT_ALLOWED',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  JSON_REQUIRED: 'JSON_REQUIRED',
  NOT_FOUND: 'NOT_FOUND',
  OBJECT_MISSING: 'OBJECT_MISSING',
  ALREADY_CONFIRMED: 'ALREADY_CONFIRMED',
  NOT_ELIGIBLE: 'NOT_ELIGIBLE',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  UNSUPPORTED_TYPE: 'UNSUPPORTED_TYPE',
  VIDEOS_DISABLED: 'VIDEOS_DISABLED',
  VIDEO_TOO_LONG: 'VIDEO_TOO_LONG',
  DURATION_REQUIRED: 'DURATION_REQUIRED',
  CONTENT_MISMATCH: 'CONTENT_MISMATCH',
  // Spoken guestbook messages (uploads of kind audio, docs/api.md): not accepted by the event, or longer than its limit.
  AUDIO_NOT_ALLOWED: 'AUDIO_NOT_ALLOWED',
  DURATION_TOO_LONG: 'DURATION_TOO_LONG',
  RATE_LIMITED: 'RATE_LIMITED',
  // A guest's undo (DELETE /api/uploads/:id, docs/api.md): a token that is not this upload's, or a window that is over.
  UNDO_TOKEN_INVALID: 'UNDO_TOKEN_INVALID',
  UNDO_EXPIRED: 'UNDO_EXPIRED',
  // A guest's edit of words an admin has changed (PATCH /api/uploads/:id, docs/api.md): they are the couple's now.
  WORDS_LOCKED: 'WORDS_LOCKED',
  // The gallery's access (docs/api.md, "Who sees the gallery"): closed by its mode, behind a PIN,
  // a wrong PIN; downloads the couple has not allowed; a guest device's shots all taken.
  GALLERY_CLOSED: 'GALLERY_CLOSED',
  GALLERY_PIN_REQUIRED: 'GALLERY_PIN_REQUIRED',
  GALLERY_PIN_INVALID: 'GALLERY_PIN_INVALID',
  DOWNLOADS_DISABLED: 'DOWNLOADS_DISABLED',
  GUEST_LIMIT_REACHED: 'GUEST_LIMIT_REACHED',
  // A moment's name already taken in the event (POST/PATCH /api/admin/moments, docs/api.md).
  MOMENT_EXISTS: 'MOMENT_EXISTS',
  STORAGE_UNAVAILABLE: 'STORAGE_UNAVAILABLE',
  DATABASE_UNAVAILABLE: 'DATABASE_UNAVAILABLE',
  // The local driver's /media routes, which stand in for S3's presigned URLs (docs/api.md).
  URL_EXPIRED: 'URL_EXPIRED',
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  INCOMPLETE_BODY: 'INCOMPLETE_BODY',
} as const

export type ErrorCode = typeof ErrorCode[keyof typeof ErrorCode]
