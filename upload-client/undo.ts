import type { InitUploadResponse } from '#shared/schemas/upload'

/**
 * "Remover": the phone that sent an upload may take it back for a while after its confirm, with
 * the token init gave it (a capability bound to that upload, kept with the queue item, never an
 * account). After the window only the couple's admin can remove it.
 */
export interface UndoGrant {
  token: string
  windowSec: number
  /** This device's clock when the window closes; null until the upload is confirmed. */
  until: number | null
}

/** What of a queued file its undo needs; typed by shape so this module, which the store's types use, imports none of the queue's. */
type HoldsUndo = { undo?: UndoGrant | null }

export function grantUndo(item: HoldsUndo, answer: InitUploadResponse): void {
  item.undo = { token: answer.undoToken, windowSec: answer.undoWindowSec, until: null }
}

/**
 * The window opens at confirm. Counted on this device's clock from the moment the answer came
 * (a phone's clock may be off by minutes; the server's window started slightly earlier, so a
 * tap in the last second may still be refused, and then the button goes).
 */
export function openUndoWindow(item: HoldsUndo, now = Date.now()): void {
  if (item.undo) item.undo.until = now + item.undo.windowSec * 1000
}

/** Milliseconds the "Remover" button has left (0: none). */
export function undoLeftMs(item: HoldsUndo & { done: boolean, duplicate?: boolean }, now = Date.now()): number {
  if (!item.done || item.duplicate || !item.undo?.until) return 0
  return Math.max(0, item.undo.until - now)
}
