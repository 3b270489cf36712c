/**
 * The header a guest's undo carries its capability token in (DELETE /api/uploads/:id). Its own
 * file, free of zod: the upload page imports it, and a schema module would bring the validator
 * into the guest's bundle.
 */
export const UNDO_TOKEN_HEADER = 'x-undo-token'
